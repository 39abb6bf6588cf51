import { describe, expect, it } from 'vitest'
import type { App } from '../../app'
import { samplePng } from '../../../../test/support/sample-files'
import { useTestApps } from '../../../../test/support/test-apps'

describe('chat.messages and history.list in pages', () => {
  const openApp = useTestApps()

  async function chatOf(app: App, n: number): Promise<string> {
    const session = app.services.sessions.create()
    for (let i = 1; i <= n; i++) {
      await app.services.chat.append(session.id, {
        role: i % 2 ? 'user' : 'assistant',
        parts: [{ type: 'text', text: `Message number ${i}` }]
      })
    }
    return session.id
  }

  const call = async <T>(app: App, route: string, input: unknown): Promise<T> => {
    const out = (await app.router.call(route as never, input as never)) as { ok: boolean; data?: T; error?: unknown }
    if (!out.ok) throw new Error(JSON.stringify(out.error))
    return out.data!
  }
  type Page = {
    messages: Array<{ id: string; seq: number; inContext?: boolean }>
    hasOlder: boolean
    hasNewer: boolean
  }

  it('opens a chat at its newest page, and the pages before it add up to the whole conversation', async () => {
    const app = openApp()
    const sessionId = await chatOf(app, 450)
    const newest = await call<Page>(app, 'chat.messages', { sessionId })
    // The default page: the newest 200.
    expect(newest.messages.map((m) => m.seq)).toEqual(Array.from({ length: 200 }, (_, i) => 251 + i))
    expect(newest).toMatchObject({ hasOlder: true, hasNewer: false })

    const ids = newest.messages.map((m) => m.id)
    let page = newest
    while (page.hasOlder) {
      page = await call<Page>(app, 'chat.messages', { sessionId, before: page.messages[0]!.seq, limit: 150 })
      ids.unshift(...page.messages.map((m) => m.id))
    }
    // The CLI's and export's whole-history read is unchanged.
    expect(ids).toEqual(app.services.chat.messages(sessionId).map((m) => m.id))
    expect(JSON.parse(app.services.sessions.export(sessionId, 'json').text).messages).toHaveLength(450)
  })

  it('opens around a message found by search, and says what is on either side', async () => {
    const app = openApp()
    const sessionId = await chatOf(app, 300)
    const hit = app.services.history.search(sessionId, 'number 37').hits.find((h) => h.seq === 37)!
    const around = await call<Page>(app, 'chat.messages', { sessionId, around: hit.messageId, limit: 20 })
    expect(around.messages.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 27 + i))
    expect(around).toMatchObject({ hasOlder: true, hasNewer: true })
    const newer = await call<Page>(app, 'chat.messages', { sessionId, after: 46, limit: 500 })
    expect(newer.messages.at(-1)!.seq).toBe(300)
    expect(newer.hasNewer).toBe(false)

    const elsewhere = app.services.sessions.create()
    expect(await app.router.call('chat.messages', { sessionId: elsewhere.id, around: hit.messageId })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
    expect(await app.router.call('chat.messages', { sessionId: 'no-such-chat' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' }
    })
  })

  it('marks a history page by the summary of the whole chat, and counts what it represents', async () => {
    const app = openApp()
    const sessionId = await chatOf(app, 60)
    await app.services.compression.run(sessionId, { summarizer: 'truncate', retentionOverride: 40 })
    const cutoff = app.services.history.list(sessionId).summaryCutoffSeq
    expect(cutoff).toBeGreaterThan(10)

    const newest = await call<Page & { summaryCutoffSeq: number; summarizedCount: number }>(app, 'history.list', {
      sessionId,
      limit: 10
    })
    expect(newest.summaryCutoffSeq).toBe(cutoff)
    expect(newest.summarizedCount).toBe(cutoff)
    expect(newest.messages.map((m) => m.inContext)).toEqual(newest.messages.map((m) => m.seq > cutoff))
    expect(newest.messages.at(-1)!.inContext).toBe(true)
    const first = await call<Page>(app, 'history.list', { sessionId, after: 0, limit: 10 })
    expect(first.messages.map((m) => [m.seq, m.inContext])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i + 1, false])
    )
    expect(first).toMatchObject({ hasOlder: false, hasNewer: true })
  })

  it('lists the files the summary stands for from the server, past what the newest page holds', async () => {
    const app = openApp()
    const session = app.services.sessions.create()
    const part = await app.services.attachments.upload({
      filename: 'chart.png',
      mediaType: 'image/png',
      data: samplePng(8, 6)
    })
    await app.services.chat.append(session.id, {
      role: 'user',
      parts: [{ type: 'text', text: 'Here is the chart' }, part]
    })
    for (let i = 2; i <= 260; i++)
      await app.services.chat.append(session.id, {
        role: i % 2 ? 'user' : 'assistant',
        parts: [{ type: 'text', text: `Message ${i}` }]
      })
    await app.services.compression.run(session.id, { summarizer: 'truncate', retentionOverride: 40 })
    const page = await call<Page>(app, 'chat.messages', { sessionId: session.id })
    expect(page.messages.some((m) => m.seq === 1)).toBe(false)
    const manifest = await call<{ cutoffSeq: number; items: Array<{ filename: string; seq: number }> }>(
      app,
      'attachments.manifest',
      { sessionId: session.id }
    )
    expect(manifest.cutoffSeq).toBeGreaterThan(200)
    expect(manifest.items).toMatchObject([{ filename: 'chart.png', seq: 1, hash: part.hash }])
  })

  it('refuses a bad cursor before reading anything', async () => {
    const app = openApp()
    const sessionId = await chatOf(app, 3)
    const bad: unknown[] = [
      { sessionId, before: 0 },
      { sessionId, before: -3 },
      { sessionId, before: 1.5 },
      { sessionId, after: -1 },
      { sessionId, before: '10' },
      { sessionId, before: 5, after: 1 },
      { sessionId, after: 1, around: 2 },
      { sessionId, around: '' },
      { sessionId, around: 0 },
      { sessionId, limit: 0 },
      { sessionId, limit: 501 },
      { sessionId, limit: 20.5 },
      { sessionId, cursor: 'next' },
      { before: 10 }
    ]
    for (const route of ['chat.messages', 'history.list']) {
      for (const input of bad) {
        expect(
          await app.router.call(route as 'chat.messages', input as never),
          `${route} ${JSON.stringify(input)}`
        ).toMatchObject({
          ok: false,
          error: { code: 'invalid_input' }
        })
      }
      // The largest page is allowed.
      expect(await app.router.call(route as 'chat.messages', { sessionId, limit: 500 })).toMatchObject({ ok: true })
    }
  })
})
