import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { useTestApps } from '../../../test/support/test-apps'

describe('a busy database', () => {
  const openApp = useTestApps()

  it('is reported in plain words, and the save goes through once the other program lets go', async () => {
    const app = openApp()
    // Another program (not Distill: it ignores the owner lock) holds the write lock.
    const other = new Database(app.database.file)
    other.exec('BEGIN IMMEDIATE')
    app.database.sqlite.pragma('busy_timeout = 50')
    const busy = await app.router.call('settings.update', { theme: 'dark' })
    expect(busy).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message: 'The database is busy: another program is using it. Nothing was changed; try again in a moment.'
      }
    })
    other.exec('ROLLBACK')
    other.close()
    expect(await app.router.call('settings.update', { theme: 'dark' })).toMatchObject({
      ok: true,
      data: { theme: 'dark' }
    })
  })
})
