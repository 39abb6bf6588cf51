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
  await expect(message.getByRole('button', { name: 'Unpin message' })).toBeAttached()
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
  await snapBoth(page, 'pinned-meter')
  await meter.click()
  const inspector = page.getByRole('dialog')
  await expect(inspector).toContainText('Pinned (1 message)')
  await expect(inspector).toContainText(/1 pinned message takes \d+% of this chat's context \(limit 25%\)/)
  await snapBoth(page, 'pinned-inspector')
  await page.keyboard.press('Escape')

  // The Summary panel lists the pin, sent beside the summary that covers it.
  const region = page.getByRole('region', { name: 'Summary' })
  // A toast about the last summary may cover the toggle: the keyboard reaches it all the same.
  await region.getByRole('button', { name: /messages? summarized/ }).focus()
  await page.keyboard.press('Enter')
  const list = region.getByRole('region', { name: 'Pinned messages' })
  await expect(list).toContainText('1 pinned message, sent word for word in every request')
  await expect(list).toContainText('BLUE HERON')
  await list.scrollIntoViewIfNeeded()
  await snapBoth(page, 'pinned-summary-panel')

  // Full history marks it.
  await page.getByRole('button', { name: 'View full history' }).focus()
  await page.keyboard.press('Enter')
  const history = page.getByRole('dialog', { name: 'Full history' })
  const all = history.getByRole('region', { name: 'All messages' })
  // It opens at the newest messages: scroll back to the first.
  await expect(async () => {
    await all.evaluate((el) => (el.scrollTop = 0))
    await expect(all.getByRole('article', { name: /message 1, pinned/ })).toBeVisible({ timeout: 1000 })
  }).toPass({ timeout: 15_000 })
  await expect(all.getByRole('article', { name: /message 1, pinned/ }).getByText('Pinned')).toBeVisible()
  await snapBoth(page, 'pinned-full-history')
  await page.keyboard.press('Escape')

  // The limit sits with the other thresholds in Settings.
  await page.getByRole('button', { name: 'Settings', exact: true }).focus()
  await page.keyboard.press('Enter')
  const limit = page.getByRole('spinbutton', { name: /Pinned messages at most/ })
  await expect(limit).toHaveValue('25')
  await limit.scrollIntoViewIfNeeded()
  await snapBoth(page, 'pinned-settings')
})

test('pins more than a shrunk window can carry are said to be cut, beside the message box and in the inspector', async ({
  page,
  distill
}) => {
  await page.goto(distill.url)
  await rpc(page, 'settings.update', { customModels: [LOCAL], pinShareLimit: 60 })
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: LOCAL.provider, modelId: LOCAL.id })
  await sendInComposer(page, longMessage(1))
  const message = messageWith(page, 'End of turn 1').first()
  await message.hover()
  await message.getByRole('button', { name: 'Pin message' }).click()
  await expect(message.getByText('Pinned', { exact: true })).toBeVisible()

  // The chat's window set far below the pin: every request must cut it in the middle, and says so.
  await rpc(page, 'sessions.update', { id: sessionId, contextWindow: 600 })
  await expect(
    page.getByRole('status').filter({ hasText: /more than this model's window can carry: about [\d,]+ tokens/ })
  ).toBeVisible()
  await page.getByRole('meter', { name: 'Context usage' }).click()
  await expect(page.getByRole('dialog')).toContainText(
    /about [\d,]+ tokens from their middle are left out of every request/
  )
  await snapBoth(page, 'pinned-cut')
})
