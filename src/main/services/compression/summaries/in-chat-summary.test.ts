import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../../e2e/fake-provider'
import { IN_CHAT_SUMMARY_START } from '../../../engine/prompts'
import { useFakeProvider, useTestApps } from '../../../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

type Block = { type: string; text?: string }
type AnthropicBody = { system?: Block[]; messages: Array<{ role: string; content: string | Block[] }> }

const lastText = (body: AnthropicBody) => {
  const content = body.messages.at(-1)!.content
  return typeof content === 'string' ? content : content.map((b) => b.text ?? '').join('')
}
const isInChat = (r: { body: unknown }) => lastText(r.body as AnthropicBody).startsWith(IN_CHAT_SUMMARY_START)
const isOwnSummary = (r: { body: unknown }) => JSON.stringify(r.body).includes('conversation summarization assistant')
/** A block's text only: the cache marks differ between requests, the text must not. */
const texts = (blocks: Block[] | string) =>
  typeof blocks === 'string' ? [blocks] : blocks.map((b) => b.text ?? JSON.stringify(b))
/** Polls until `done` holds (a summary written ahead finishes on its own time). */
async function until(done: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !done();) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
const words = (tokens: number, tag: string) => `${tag} ` + 'lantern harbor copper meadow '.repeat(Math.ceil(tokens / 7))

/** Summaries asked inside the chat's own request (issue 34): the provider's prompt cache serves them. */
describe('a model summary asked inside the chat', () => {
  const open = useTestApps()

  function anthropicChat(summarizationModel?: string) {
    const app = open({
      backgroundRetryMs: [10, 10],
      env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.baseURLs.anthropic }
    })
    app.services.settings.update({
      customModels: [
        { provider: 'anthropic', id: 'claude-16k', contextWindow: 16_384, maxOutput: 1024 },
        { provider: 'anthropic', id: 'claude-other', contextWindow: 16_384, maxOutput: 1024 }
      ],
      ...(summarizationModel ? { summarizationModel } : {})
    })
    const { id } = app.services.sessions.create()
    app.services.sessions.update(id, { provider: 'anthropic', modelId: 'claude-16k', recall: false })
    return { app, id }
  }

  async function chatUntilSummarized(app: ReturnType<typeof anthropicChat>['app'], id: string) {
    for (let i = 1; !app.services.compression.active(id).summary && i < 80; i++) {
      fake.script([{ for: 'summary', reply: words(150, `SUMMARY${i}`) }, { reply: words(500, `ANSWER${i}`) }])
      app.services.chat.send(id, `Question ${i}: tell me more about the harbor.`)
      await app.services.chat.idle()
      await app.services.compression.backgroundSettled(id)
      // A summary being written ahead is waited for: on a busy machine the next send would otherwise
      // find it unfinished and take the quick path (its model summary then comes in a request of its own).
      await until(() => app.services.next.meter(id).preparedSummary?.state !== 'writing')
    }
    return app.services.compression.active(id).summary!
  }

  it('repeats the last reply request word for word, then asks; the cache serves it and the summary records it', async () => {
    const { app, id } = anthropicChat()
    const summary = await chatUntilSummarized(app, id)
    expect(summary.content.summarizer).toBe('claude-16k')

    const at = fake.requests.findIndex(isInChat)
    expect(at).toBeGreaterThan(0)
    expect(fake.requests.some(isOwnSummary)).toBe(false)
    const ask = fake.requests[at]!
    const before = fake.requests
      .slice(0, at)
      .reverse()
      .find((r) => r.provider === 'anthropic')!
    const askBody = ask.body as AnthropicBody
    const prevBody = before.body as AnthropicBody
    // Everything but the instruction is the chat's request as the last reply's request sent it,
    // up to its pending message (whose reply is now history).
    expect(askBody.system && texts(askBody.system)).toEqual(prevBody.system && texts(prevBody.system))
    const prior = prevBody.messages.slice(0, -1)
    expect(askBody.messages.slice(0, prior.length).map((m) => [m.role, texts(m.content)])).toEqual(
      prior.map((m) => [m.role, texts(m.content)])
    )
    expect(lastText(askBody)).toMatch(/Summarize the first \d+ messages of the conversation above/)
    expect(lastText(askBody)).toContain('Question 1: tell me more about the harbor.')

    // The provider's cache served nearly all of it, and the summary says so.
    expect(ask.cache!.read).toBeGreaterThan(0.8 * ask.inputTokens!)
    expect(summary.content.modelUsage).toMatchObject({
      inputTokens: ask.inputTokens,
      cacheReadTokens: ask.cache!.read,
      cacheWriteTokens: ask.cache!.write
    })
    const cost = app.services.usage.cost(id)
    expect(cost.summaries.cacheReadTokens).toBe(ask.cache!.read)
  }, 60_000)

  it('asks in a request of its own when another model writes the summaries (their caches are not shared)', async () => {
    const { app, id } = anthropicChat('claude-other')
    const summary = await chatUntilSummarized(app, id)
    expect(summary.content.summarizer).toBe('claude-other')
    expect(fake.requests.some(isInChat)).toBe(false)
    const own = fake.requests.find(isOwnSummary)!
    expect((own.body as { model: string }).model).toBe('claude-other')
  }, 60_000)
})
