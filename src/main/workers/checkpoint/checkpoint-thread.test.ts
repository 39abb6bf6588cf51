import { statSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { useTestApps } from '../../../../test/support/test-apps'

describe('checkpoints on a thread of their own', () => {
  const open = useTestApps()

  it('copies the log back into the file off the event loop, and the app keeps its data', async () => {
    const app = open()
    expect(app.database.sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0)
    const session = app.services.sessions.create()
    const text = 'several words of text '.repeat(45_000)
    for (let i = 0; i < 5; i++)
      await app.services.chat.append(session.id, { role: 'user', parts: [{ type: 'text', text }] })
    await vi.waitFor(() => expect(statSync(app.database.file).size).toBeGreaterThan(4_000_000), {
      timeout: 10_000,
      interval: 100
    })
    expect(app.services.chat.messages(session.id).map((m) => m.parts)).toEqual(Array(5).fill([{ type: 'text', text }]))
    await app.close()
  })
})
