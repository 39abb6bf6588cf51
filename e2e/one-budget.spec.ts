import type { Locator, Page } from '@playwright/test'
import type { FakeProvider } from './fake-provider'
import { textOf } from './fake-provider/reply'
import { expect, test } from './support/fixtures'
import { newChat, rpc, sendInComposer, snapBoth } from './support/conversation'

/**
 * A local server whose tokenizer counts fewer tokens than Distill's estimate (0.7×, as a local
 * model's own count often does): the request it receives must still hold every message no summary
 * holds. Before the one budget model, the 9th request went out without its oldest messages.
 */

const LOCAL = { provider: 'openai-compatible', id: 'local-4k', contextWindow: 4096, maxOutput: 512 } as const
const WORDS = 'harbor lantern copper meadow falcon quartz willow summit orchard cedar amber river'.split(' ')
/** A longer message (~400 tokens) that says which turn it is. */
const longMessage = (turn: number) =>
  `Turn ${turn}: ${Array.from({ length: 380 }, (_, i) => WORDS[(i * 5 + turn) % WORDS.length]).join(' ')}. End of turn ${turn}.`

interface Message {
  seq: number
  role: string
  parts: Array<{ type: string; text?: string }>
  sentWithoutMessages?: number
}

async function localChat(page: Page): Promise<string> {
  await rpc(page, 'settings.update', { customModels: [LOCAL] })
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: LOCAL.provider, modelId: LOCAL.id })
  return sessionId
}

/** The chat's messages and the cutoff of its active summary, as the app has them now. */
async function chatState(page: Page, sessionId: string) {
  const { messages } = await rpc<{ messages: Message[] }>(page, 'chat.messages', { sessionId })
  const { summary } = await rpc<{ summary: { cutoffSeq: number } | null }>(page, 'compression.active', { sessionId })
  return { messages, cutoff: summary?.cutoffSeq ?? 0 }
}

/** A message's own text as sent: Recall's passages ride as the pending message's last part. */
const ownText = (content: unknown) =>
  textOf(Array.isArray(content) ? content.filter((p) => !textOf(p).startsWith('Recalled')) : content)

const turnsOf = (request: FakeProvider['requests'][number]) =>
  (request.body as { messages: Array<{ role: string; content: unknown }> }).messages
    .filter((m) => m.role !== 'system')
    .map((m) => ownText(m.content))

/** The reply request for `turn` (summaries written in the background are requests too), but its system messages. */
function replyRequest(fake: FakeProvider, turn: number) {
  const request = fake.requests.findLast((r) => turnsOf(r).at(-1)?.startsWith(`Turn ${turn}:`))!
  return { turns: turnsOf(request), inputTokens: request.inputTokens! }
}

test('a server counting 0.7× the estimate receives every unsummarized message in every request', async ({
  page,
  distill,
  fake
}) => {
  fake.setUsageFactor(0.7)
  await page.goto(distill.url)
  const sessionId = await localChat(page)
  let compressed = false
  for (let turn = 1; turn <= 12; turn++) {
    await sendInComposer(page, longMessage(turn))
    const { messages, cutoff } = await chatState(page, sessionId)
    const reply = messages.at(-1)!
    const unsummarized = messages.filter((m) => m.seq > cutoff && m.seq < reply.seq)
    // Whole, in order, starting where the summary ends: nothing absent, no orphaned reply first.
    const sent = replyRequest(fake, turn)
    expect(sent.turns).toEqual(unsummarized.map((m) => m.parts.map((p) => p.text ?? '').join('\n\n')))
    expect(reply.sentWithoutMessages).toBeUndefined()
    expect(sent.inputTokens).toBeLessThanOrEqual(LOCAL.contextWindow - LOCAL.maxOutput)
    compressed ||= cutoff > 0
  }
  expect(compressed).toBe(true)
  await expect(
    page.getByRole('log', { name: 'Messages' }).getByRole('note').filter({ hasText: 'Answered without' })
  ).toHaveCount(0)

  // The meter says what the calibration learned, in the same words the inspector uses.
  const meter = page.getByRole('meter', { name: 'Context usage' })
  await meter.hover()
  const popover = page.getByRole('tooltip')
  await expect(popover).toContainText(
    /The provider counted \d+% fewer tokens than the estimate over the last \d+ replies/
  )
  // Its rows add up to "In context": the calibration to the provider's counts is one of them.
  const rows = await rowsOf(popover.locator('.usage-list').first().locator('.usage-row'))
  const calibration = rows.find(([label]) => label === 'Calibration to the provider’s counts')
  expect(calibration?.[1], 'the popover has no calibration row').toBeLessThan(0)
  const [total, ...parts] = [rows.at(-1)!, ...rows.slice(0, -1)]
  expect(total[0]).toMatch(/^In context/)
  expect(parts.reduce((sum, [, value]) => sum + value, 0)).toBe(total[1])
  await snapBoth(page, 'one-budget-calibrated')

  // The inspector's row says the same.
  await meter.click()
  const inspector = page.getByRole('dialog', { name: 'Context inspector' })
  const row = inspector.getByRole('row', { name: /Calibration to the provider’s counts/ })
  await expect(row.getByRole('cell').first()).toHaveText(calibrationText(calibration![1]))
})

/** The label and value of each row of a popover list, values as numbers ("−1,159" is -1159). */
async function rowsOf(rows: Locator): Promise<Array<[string, number]>> {
  const texts = await rows.evaluateAll((els) =>
    els.map((el) => [el.querySelector('dt')!.textContent!, el.querySelector('dd')!.textContent!] as const)
  )
  return texts.map(([label, value]) => [label, Number(value.replace(/[,\s]/g, '').replace('−', '-'))])
}

const calibrationText = (value: number) => `${value > 0 ? '+' : '−'}${Math.abs(value).toLocaleString('en-US')}`

test('with auto-compression off, the oldest messages that do not fit are named before the send and on the reply', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  const sessionId = await localChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, autoCompress: false })
  for (let turn = 1; turn <= 9; turn++) await sendInComposer(page, longMessage(turn))

  // Before sending: the meter's tooltip says how many would be left out.
  await page.getByRole('textbox', { name: 'Message' }).fill(longMessage(10))
  const meter = page.getByRole('meter', { name: 'Context usage' })
  await meter.hover()
  await expect(page.getByRole('tooltip')).toContainText(
    /Auto-compression is off, so the \d+ oldest unsummarized messages would be left out/
  )
  // And beside the message box, with the way out.
  const warning = page.getByRole('status').filter({ hasText: 'Auto-compression is off: the next message goes without' })
  await expect(warning).toBeVisible()
  await expect(warning.getByRole('button', { name: 'Summarize' })).toBeVisible()
  await page.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 })

  const { messages } = await chatState(page, sessionId)
  const reply = messages.at(-1)!
  const leftOut = reply.sentWithoutMessages ?? 0
  expect(leftOut).toBeGreaterThan(0)
  // What was sent starts with a user turn and holds everything newer than what the reply names.
  const sent = replyRequest(fake, 10).turns
  const carried = messages.filter((m) => m.seq < reply.seq).slice(leftOut)
  expect(carried[0]!.role).toBe('user')
  expect(sent).toEqual(carried.map((m) => m.parts.map((p) => p.text ?? '').join('\n\n')))
  const note = page.getByRole('log', { name: 'Messages' }).getByRole('note').filter({ hasText: 'Answered without' })
  await expect(note.last()).toContainText(`Answered without the ${leftOut} oldest messages of this chat`)
  await snapBoth(page, 'one-budget-left-out')
  // "Summarize" in the note is a button that opens the Summarize dialog.
  await note.last().getByRole('button', { name: 'Summarize' }).click()
  await expect(page.getByRole('dialog', { name: 'Summarize conversation history' })).toBeVisible()
})
