import { statSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { useTestApps } from '../../../../test/support/test-apps'
import { startCheckpoints } from './checkpoint-thread'

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

  it('writes a message on its own connection, numbered after the chat, and says why when it cannot', async () => {
    const app = open()
    const session = app.services.sessions.create()
    await app.services.chat.append(session.id, { role: 'user', parts: [{ type: 'text', text: 'first' }] })
    const thread = startCheckpoints(app.database, () => undefined)
    const parts = [{ type: 'text' as const, text: 'second, written on the thread' }]
    const row = {
      id: 'm-thread',
      sessionId: session.id,
      role: 'user' as const,
      parts,
      status: 'complete' as const,
      createdAt: 5
    }
    const written = await thread.append!(row)
    expect(written).toMatchObject({ id: 'm-thread', seq: 2, parts })
    expect(app.services.chat.messages(session.id).map((m) => [m.seq, m.parts])).toEqual([
      [1, [{ type: 'text', text: 'first' }]],
      [2, parts]
    ])
    // A chat that is not there: the thread's transaction fails and nothing is written.
    await expect(thread.append!({ ...row, id: 'm-orphan', sessionId: 'no-such-chat' })).rejects.toThrow(/FOREIGN KEY/)
    await thread.close()
    await expect(thread.append!({ ...row, id: 'm-late' })).rejects.toThrow()
    expect(app.services.chat.messages(session.id)).toHaveLength(2)
    await app.close()
  })
})
