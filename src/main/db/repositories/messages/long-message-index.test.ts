import { describe, expect, it } from 'vitest'
import { useTestApps } from '../../../../../test/support/test-apps'

describe('the full-text index of a very long message', () => {
  const open = useTestApps()

  it('finds it by its first 100,000 characters and keeps the message whole', async () => {
    const app = open()
    const session = app.services.sessions.create()
    const text = `quokka ${'filler '.repeat(10_000)}wombat ${'filler '.repeat(200_000)}platypus`
    const stored = await app.services.chat.append(session.id, { role: 'user', parts: [{ type: 'text', text }] })
    const found = (query: string) => app.services.history.search(session.id, query).total
    expect([found('quokka'), found('wombat'), found('platypus')]).toEqual([1, 1, 0])
    expect(app.services.chat.message(stored.id)?.parts).toEqual([{ type: 'text', text }])
  })
})
