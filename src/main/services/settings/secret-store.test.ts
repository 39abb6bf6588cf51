import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ProviderStatus } from '../../../shared/domain/provider'
import { useOpenApps } from '../../../../test/support/test-apps'
import { useTempDir } from '../../../../test/support/temp-dir'
import { createFileSecretStore, type SecretCipher } from './secret-store'

const rot13: SecretCipher = {
  name: 'test-cipher',
  encrypt: (s) =>
    Buffer.from(s.replace(/[a-z]/gi, (c) => String.fromCharCode(c.charCodeAt(0) + (c.toLowerCase() < 'n' ? 13 : -13)))),
  decrypt: (b) =>
    b.toString().replace(/[a-z]/gi, (c) => String.fromCharCode(c.charCodeAt(0) + (c.toLowerCase() < 'n' ? 13 : -13)))
}

describe('file secret store', () => {
  const tempDir = useTempDir()

  it('keeps keys in a file only the user can read', () => {
    const file = join(tempDir(), 'secrets.json')
    const store = createFileSecretStore(file)
    store.set('openai', 'sk-test-1234')
    expect(createFileSecretStore(file).get('openai')).toBe('sk-test-1234')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    store.delete('openai')
    expect(store.get('openai')).toBeUndefined()
  })

  it('encrypts with the cipher and never writes the plain key', () => {
    const file = join(tempDir(), 'secrets.json')
    const store = createFileSecretStore(file, rot13)
    store.set('anthropic', 'sk-ant-secretvalue')
    expect(readFileSync(file, 'utf8')).not.toContain('secretvalue')
    expect(createFileSecretStore(file, rot13).get('anthropic')).toBe('sk-ant-secretvalue')
    // Without the keychain the value cannot be read, and nothing pretends otherwise.
    expect(createFileSecretStore(file).get('anthropic')).toBeUndefined()
  })
})

describe('a secrets file shared by the desktop app and browser mode', () => {
  const tempDir = useTempDir()

  it('keeps keys it cannot decrypt when it saves another one', () => {
    const file = join(tempDir(), 'secrets.json')
    const desktop = createFileSecretStore(file, rot13)
    desktop.set('anthropic', 'sk-ant-desktop')
    desktop.set('google', 'gm-desktop')
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { values: Record<string, string> }

    // Browser mode has no keychain: it saves its own key in the file beside the encrypted ones.
    const browser = createFileSecretStore(file)
    browser.set('openai', 'sk-browser')
    expect(browser.get('anthropic')).toBeUndefined()
    expect(browser.get('openai')).toBe('sk-browser')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const after = JSON.parse(readFileSync(file, 'utf8')) as { other: Record<string, Record<string, string>> }
    expect(after.other['test-cipher']).toEqual(stored.values)

    // The desktop app still reads its keys, and the one browser mode saved.
    const again = createFileSecretStore(file, rot13)
    expect([again.get('anthropic'), again.get('google'), again.get('openai')]).toEqual([
      'sk-ant-desktop',
      'gm-desktop',
      'sk-browser'
    ])
    // Its next save encrypts the plain key and keeps everything.
    again.set('google', 'gm-new')
    expect(readFileSync(file, 'utf8')).not.toContain('sk-browser')
    expect([again.get('anthropic'), again.get('google'), again.get('openai')]).toEqual([
      'sk-ant-desktop',
      'gm-new',
      'sk-browser'
    ])
  })

  it('replaces a key it cannot read when the user saves a new one under the same name, and deletes it on request', () => {
    const file = join(tempDir(), 'secrets.json')
    createFileSecretStore(file, rot13).set('anthropic', 'sk-ant-old')
    const browser = createFileSecretStore(file)
    browser.set('anthropic', 'sk-ant-new')
    expect(createFileSecretStore(file, rot13).get('anthropic')).toBe('sk-ant-new')
    browser.delete('anthropic')
    expect(createFileSecretStore(file, rot13).get('anthropic')).toBeUndefined()
  })

  it('treats a value its keychain can no longer decrypt as missing, and keeps it', () => {
    const file = join(tempDir(), 'secrets.json')
    createFileSecretStore(file, rot13).set('anthropic', 'sk-ant-1')
    const broken: SecretCipher = {
      ...rot13,
      decrypt: () => {
        throw new Error('keychain changed')
      }
    }
    const store = createFileSecretStore(file, broken)
    expect(store.get('anthropic')).toBeUndefined()
    store.set('openai', 'sk-2')
    expect(createFileSecretStore(file, rot13).get('anthropic')).toBe('sk-ant-1')
  })
})

describe('a damaged secrets.json', () => {
  const tempDir = useTempDir()
  const { open } = useOpenApps()

  it.each([
    ['half a file', '{"version":1,"cipher":null,"values":{"openai":"sk-'],
    ['not an object', '[1,2,3]'],
    ['values that are not strings', '{"version":1,"cipher":null,"values":{"openai":{"nested":true}}}']
  ])('(%s) is set aside untouched, and the app goes on with keys shown as unavailable', async (_, damaged) => {
    const dir = tempDir()
    const file = join(dir, 'secrets.json')
    writeFileSync(file, damaged)
    const app = open({ dbFile: join(dir, 'distill.db') })

    const list = await app.router.call('providers.list', {})
    expect(list.ok).toBe(true)
    const openai = (list.ok ? (list.data as ProviderStatus[]) : []).find((p) => p.id === 'openai')!
    expect(openai).toMatchObject({ keySet: false, ready: false })
    expect(openai.keyProblem).toMatch(/secrets\.json is damaged.*kept unchanged as .*secrets\.json\.damaged-/)

    const aside = readdirSync(dir).filter((f) => f.startsWith('secrets.json.damaged-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(damaged)

    expect((await app.router.call('sessions.create', {})).ok).toBe(true)
    expect(await app.router.call('providers.update', { provider: 'openai', apiKey: 'sk-new-key-1234' })).toMatchObject({
      ok: true,
      data: { keySet: true, keyHint: '1234' }
    })
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(damaged) // the new key did not touch it
  })
})
