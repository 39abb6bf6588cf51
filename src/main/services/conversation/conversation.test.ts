import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { MessagePart } from '../../../shared/domain/chat-message'
import { updateMessage } from '../../db/repositories/messages/messages-repo'
import { useTestApps } from '../../../../test/support/test-apps'
import { buildModelRequest } from './request-builder'

describe('the conversation a request reads', () => {
  const openApp = useTestApps()

  async function longChat(turns: number) {
    const app = openApp()
    // A 4k window: a request carries a few dozen of these messages at most.
    app.services.settings.update({
      customModels: [{ provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 }]
    })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'tiny-4k', systemPrompt: 'Be brief.' })
    for (let i = 0; i < turns; i++) {
      await app.services.chat.append(session.id, {
        role: 'user',
        parts: [{ type: 'text', text: `Question ${i}: what about item ${i}? ` + 'context '.repeat(i % 7) }]
      })
      if (i % 5 === 4) {
        // A tool exchange whose call and result must travel together.
        const call: MessagePart = { type: 'tool-call', toolCallId: `call-${i}`, toolName: 'lookup', input: { item: i } }
        const result: MessagePart = {
          type: 'tool-result',
          toolCallId: `call-${i}`,
          toolName: 'lookup',
          output: { found: `item ${i} `.repeat(40) }
        }
        await app.services.chat.append(session.id, { role: 'assistant', parts: [call] })
        await app.services.chat.append(session.id, { role: 'tool', parts: [result] })
      }
      await app.services.chat.append(session.id, {
        role: 'assistant',
        parts: [{ type: 'text', text: `Answer ${i}. ` + 'detail '.repeat(20) }]
      })
    }
    await app.services.chat.append(session.id, { role: 'user', parts: [{ type: 'text', text: 'And the last one?' }] })
    return { app, sessionId: session.id }
  }

  it('builds the same request from the newest messages as from the whole history', async () => {
    const { app, sessionId } = await longChat(300)
    const conv = app.services.usage.conversation(sessionId)
    const fromTail = buildModelRequest(conv)
    expect(conv.requestTail().length).toBeLessThan(conv.historyCount / 4)

    const whole = app.services.usage.conversation(sessionId)
    expect(whole.history).toHaveLength(whole.historyCount) // read everything first
    const fromWhole = buildModelRequest(whole)
    expect(fromTail.messages).toEqual(fromWhole.messages)
    expect(fromTail.system).toBe('Be brief.')
    expect(fromTail.context.tokens).toBe(fromWhole.context.tokens)
    expect(fromTail.messages.at(-1)).toEqual({ role: 'user', content: 'And the last one?' })
    // No tool result travels without its call.
    const roles = fromTail.messages.map((m) => m.role)
    expect(roles[0]).not.toBe('tool')
  })

  it('reads the whole history a page at a time, the same messages as at once, with the event loop turning between pages', async () => {
    // Over 1,600 messages with tool exchanges: more than one page of heads.
    const { app, sessionId } = await longChat(700)
    const atOnce = app.services.usage.conversation(sessionId).history
    let read = false
    // Work queued by something else (a reply streaming, a request) runs while the read is under way.
    const other = new Promise<boolean>((resolve) => setImmediate(() => resolve(read)))
    const reading = app.services.usage.conversation(sessionId).loadHistory()
    void reading.then(() => (read = true))
    expect(await other).toBe(false)
    const paged = await reading
    expect(atOnce.length).toBeGreaterThan(1000)
    const shape = (m: (typeof atOnce)[number]) => ({
      id: m.id,
      seq: m.seq,
      role: m.role,
      tokens: m.tokens,
      text: m.text,
      calls: m.toolCallIds,
      results: m.toolResultIds
    })
    expect(paged.map(shape)).toEqual(atOnce.map(shape))
  })

  it('keeps the meter equal to the stored counts after every kind of write', async () => {
    // Long enough that the oldest messages' totals are kept between requests.
    const { app, sessionId } = await longChat(150)
    const stored = () => {
      const rows = app.services.chat.messages(sessionId).filter((m) => m.status === 'complete')
      const conv = app.services.usage.conversation(sessionId)
      const after = rows.filter((m) => m.seq > (conv.summary?.cutoffSeq ?? 0))
      return conv.systemTokens + conv.summaryTokens + after.reduce((s, m) => s + m.tokenCount!, 0) + conv.overheadTokens
    }
    const meter = () => app.services.next.meter(sessionId).tokens
    expect(meter()).toBe(stored())
    const before = meter()
    await app.services.chat.append(sessionId, {
      role: 'assistant',
      parts: [{ type: 'text', text: 'One more answer.' }]
    })
    expect(meter()).toBeGreaterThan(before)
    expect(meter()).toBe(stored())
    await app.services.compression.run(sessionId, { summarizer: 'extractive', retentionOverride: 200 })
    expect(meter()).toBe(stored())
    expect(meter()).toBeLessThan(before)
    await app.services.compression.undo(sessionId)
    expect(meter()).toBe(stored())
    // A write by another connection to the same file is seen too.
    // A recount of an old message, written by this process.
    const oldest = app.services.chat.messages(sessionId)[0]!
    const recounted = meter()
    updateMessage(app.database.db, oldest.id, { tokenCount: oldest.tokenCount! + 100 })
    expect(meter()).toBe(recounted + 100)
    expect(meter()).toBe(stored())
    const other = new Database(app.database.file)
    other.prepare("UPDATE chat_messages SET status = 'error' WHERE session_id = ? AND seq = 3").run(sessionId)
    other.close()
    expect(meter()).toBe(stored())
  })
})
