import type { Page } from '@playwright/test'
import type { FakeProvider } from './fake-provider'
import { textOf } from './fake-provider/reply'
import { expect, test } from './support/fixtures'
import { newChat, rpc, sendInComposer, snapBoth } from './support/conversation'

/**
 * A message pinned early in a long chat reaches the model word for word in every request, however
 * many times the chat is summarized, and the meter and the inspector show it as its own row.
 */

const LOCAL = { provider: 'openai-compatible', id: 'local-4k', contextWindow: 4096, maxOutput: 512 } as const
const WORDS = 'harbor lantern copper meadow falcon quartz willow summit orchard cedar amber river'.split(' ')
const longMessage = (turn: number) =>
  `Turn ${turn}: ${Array.from({ length: 380 }, (_, i) => WORDS[(i * 5 + turn) % WORDS.length]).join(' ')}. End of turn ${turn}.`
const PINNED = 'Keep this in mind: the release code name is BLUE HERON and it ships on 4 December.'

const messageWith = (page: Page, text: string) =>
  page.getByRole('log', { name: 'Messages' }).locator('article.message').filter({ hasText: text })

const carried = (request: FakeProvider['requests'][number]) =>
  (request.body as { messages: Array<{ content: unknown }> }).messages.map((m) => textOf(m.content))

test('a pinned message is in every request of a long chat, past several summaries, with its own row', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  await rpc(page, 'settings.update', { customModels: [LOCAL] })
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: LOCAL.provider, modelId: LOCAL.id })

  await sendInComposer(page, PINNED)
  const message = messageWith(page, 'BLUE HERON').first()
  await message.hover()
  await message.getByRole('button', { name: 'Pin message' }).click()
  await expect(message.getByText('Pinned', { exact: true })).toBeVisible()
  await expect(message.getByRole('button', { name: 'Unpin message' })).toHaveAttribute('aria-pressed', 'true')
  await snapBoth(page, 'pinned-message')

  const from = fake.requests.length
  for (let turn = 1; turn <= 10; turn++) await sendInComposer(page, longMessage(turn))

  // Replies only (summaries written in the background are requests too): each carries the pin whole.
  const replies = fake.requests.slice(from).filter((r) => carried(r).some((t) => t.startsWith('Turn ')))
  expect(replies.length).toBeGreaterThanOrEqual(10)
  for (const r of replies) expect(carried(r).join('\n')).toContain(PINNED)

  const { summary } = await rpc<{ summary: { cutoffSeq: number } | null }>(page, 'compression.active', { sessionId })
  const snapshots = await rpc<Array<{ kind: string }>>(page, 'compression.snapshots', { sessionId })
  expect(summary?.cutoffSeq ?? 0).toBeGreaterThan(1)
  expect(snapshots.filter((s) => s.kind === 'summary').length).toBeGreaterThanOrEqual(2)

  const meter = page.getByRole('meter', { name: 'Context usage' })
  await meter.hover()
  await expect(page.getByRole('tooltip')).toContainText('Pinned (1 message)')
  await meter.click()
  const inspector = page.getByRole('dialog')
  await expect(inspector).toContainText('Pinned (1 message)')
  await expect(inspector).toContainText(/1 pinned message takes \d+% of this chat's context \(limit 25%\)/)
  await snapBoth(page, 'pinned-inspector')
  await page.keyboard.press('Escape')
  await snapBoth(page, 'pinned-chat')
})
