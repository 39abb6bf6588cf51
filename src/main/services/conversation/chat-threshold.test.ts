import { describe, expect, it } from 'vitest'
import { useTestApps } from '../../../../test/support/test-apps'

describe("a chat's own compression threshold", () => {
  const open = useTestApps()

  it('wins over its model’s and the global one, says where it is set, and clears back', () => {
    const app = open()
    const chat = app.services.sessions.create()
    const other = app.services.sessions.create()
    for (const s of [chat, other]) app.services.sessions.update(s.id, { provider: 'openai', modelId: 'gpt-4o' })
    const setting = (id: string) => app.services.next.meter(id).thresholdSetting

    expect(setting(chat.id)).toEqual({ percent: 95, source: 'global' })
    app.services.settings.update({ modelThresholds: { 'openai:gpt-4o': 80 } })
    expect(setting(chat.id)).toEqual({ percent: 80, source: 'model' })

    app.services.sessions.update(chat.id, { thresholdPercent: 75 })
    expect(setting(chat.id)).toEqual({ percent: 75, source: 'chat' })
    expect(app.services.next.meter(chat.id).budget.thresholdPercent).toBe(75)
    expect(setting(other.id)).toEqual({ percent: 80, source: 'model' }) // only that chat
    expect(app.services.sessions.get(chat.id).thresholdPercent).toBe(75) // stored with the chat

    app.services.sessions.update(chat.id, { thresholdPercent: null })
    expect(setting(chat.id)).toEqual({ percent: 80, source: 'model' })
  })
})
