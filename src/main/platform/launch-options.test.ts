import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dbFlagFromArgv, resolveShellLocation } from './launch-options'

describe('dbFlagFromArgv', () => {
  it('reads --db FILE and --db=FILE among Electron and Chromium switches', () => {
    expect(dbFlagFromArgv(['/usr/bin/electron', '.', '--db', '/tmp/a.db'])).toBe('/tmp/a.db')
    expect(dbFlagFromArgv(['electron', 'out/main/index.js', '--no-sandbox', '--db=/tmp/b.db', '--inspect'])).toBe(
      '/tmp/b.db'
    )
  })

  it('lets the last one win and ignores a dangling flag', () => {
    expect(dbFlagFromArgv(['--db', 'a.db', '--db', 'b.db'])).toBe('b.db')
    expect(dbFlagFromArgv(['--db'])).toBeUndefined()
    expect(dbFlagFromArgv(['--db', '--other'])).toBeUndefined()
    expect(dbFlagFromArgv(['--db='])).toBeUndefined()
    expect(dbFlagFromArgv(['--dbx', 'a.db'])).toBeUndefined()
  })

  it('stops at --', () => {
    expect(dbFlagFromArgv(['--', '--db', 'a.db'])).toBeUndefined()
  })
})

describe('resolveShellLocation', () => {
  const defaultUserData = resolve('/home/u/.config/distill')

  it('defaults to userData/distill.db in the default profile', () => {
    expect(resolveShellLocation({ argv: ['electron', '.'], env: {}, defaultUserData })).toEqual({
      dbFile: join(defaultUserData, 'distill.db'),
      userData: defaultUserData
    })
  })

  it('prefers --db over DISTILL_DB, resolved against the working directory', () => {
    const loc = resolveShellLocation({
      argv: ['electron', '.', '--db', 'chats.db'],
      env: { DISTILL_DB: '/elsewhere.db' },
      defaultUserData,
      cwd: resolve('/work')
    })
    expect(loc.dbFile).toBe(resolve('/work/chats.db'))
  })

  it('uses DISTILL_DB when there is no flag', () => {
    const loc = resolveShellLocation({ argv: [], env: { DISTILL_DB: ' /data/x.db ' }, defaultUserData })
    expect(loc.dbFile).toBe(resolve('/data/x.db'))
  })

  it('gives each explicit database its own stable profile (one instance per database)', () => {
    const a1 = resolveShellLocation({ argv: ['--db', '/tmp/a.db'], env: {}, defaultUserData })
    const a2 = resolveShellLocation({ argv: ['--db=/tmp/a.db'], env: {}, defaultUserData })
    const b = resolveShellLocation({ argv: ['--db', '/tmp/b.db'], env: {}, defaultUserData })
    expect(a1.userData).toBe(a2.userData)
    expect(a1.userData).not.toBe(b.userData)
    expect(a1.userData.startsWith(join(defaultUserData, 'profiles'))).toBe(true)
  })
})
