import type { Locator, Page } from '@playwright/test'
import {
  addSmallModel,
  longConversation,
  newChat,
  overlaps,
  pickModel,
  rpc,
  sendAndWait,
  sendInComposer,
  snapBoth
} from './support/conversation'
import { expect, snap, test } from './support/fixtures'

async function valueOf(meter: Locator): Promise<number> {
  return Number(await meter.getAttribute('aria-valuenow'))
}

function summaryRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Summary' })
}

/** Expands the Summary region (collapsed by default) and returns it. */
async function expandSummary(page: Page): Promise<Locator> {
  const region = summaryRegion(page)
  const toggle = region.getByRole('button', { name: /messages? summarized/ })
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  return region
}

const SUMMARY_ONE = [
  '## Context',
  'The user and the assistant designed a REST API for an inventory service.',
  '',
  '## Key Points',
  '- Resources are versioned under `/v1`.',
  '- Pagination uses opaque cursors.',
  '',
  '## Decisions and Outcomes',
  '- The API design decisions: JSON everywhere, ETags for caching.'
].join('\n')

const SUMMARY_TWO = [
  '## Context',
  'A second, tighter take: the inventory API, versioned and cursor-paginated.',
  '',
  '## Unresolved Questions',
  '- Whether to expose bulk endpoints.'
].join('\n')

test('auto-compression of a small-window model shows a notice and the Summary region', async ({ page, distill }) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  await addSmallModel(page)
  await newChat(page)
  await pickModel(page, 'tiny-4k', /^tiny-4k · /)
  const meter = page.getByRole('meter', { name: 'Context usage' })
  // 4,096 less 512 for the reply and a 5% margin.
  await expect(meter).toHaveAttribute('aria-valuemax', /^33\d\d$/)

  const filler = 'We keep talking about the inventory service and its API design in some detail. '
  let notice: Locator | null = null
  for (let i = 0; i < 12 && !notice; i++) {
    await sendInComposer(page, `Turn ${i + 1}. ${filler.repeat(40)}`)
    // The quick summary's notice, soon replaced by the model summary's (written in the background).
    const toast = page.getByText(/^(Summarized \d+ messages|Model summary ready) · context now [\d.]+k? tokens$/)
    if (await toast.isVisible()) notice = toast
  }
  expect(notice, 'auto-compression never ran').not.toBeNull()
  await expect(page.getByRole('button', { name: 'View summary' })).toBeVisible()

  const region = summaryRegion(page)
  await expect(region).toBeVisible()
  const toggle = region.getByRole('button', { name: /\d+ messages summarized/ })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  // Older messages are still shown, dimmed and marked; the divider shows where the context starts.
  await expect(page.getByRole('separator', { name: 'Active context starts here' })).toBeAttached()
  await snapBoth(page, 'compression-auto-notice')

  // "View summary" expands the region.
  await page.getByRole('button', { name: 'View summary' }).click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(region.getByText('Strategy')).toBeVisible()
  await expect(region.getByText('Rolling')).toBeVisible()
  await expect(region.getByText('tiny-4k')).toBeVisible()
  await expect(region.getByRole('button', { name: 'Undo' })).toBeVisible()
  await expect(region.getByRole('button', { name: 'Regenerate' })).toBeVisible()
  await snapBoth(page, 'compression-summary-expanded')

  // The meter came down below the threshold.
  const usable = Number(await meter.getAttribute('aria-valuemax'))
  expect(await valueOf(meter)).toBeLessThan(usable * 0.95)

  // Scrolling up shows a summarized message, marked as not in context.
  const log = page.getByRole('log', { name: 'Messages' })
  await log.evaluate((el) => (el.scrollTop = 0))
  await expect(log.getByText('Not in context').first()).toBeVisible()
  await snapBoth(page, 'compression-not-in-context')
})

test('the next summary is written ahead, shown by the meter, and goes in at the threshold without a wait', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  await rpc(page, 'settings.update', {
    prepareAtPercent: 50,
    customModels: [{ provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 }]
  })
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai', modelId: 'tiny-4k' })
  fake.script(Array.from({ length: 6 }, () => ({ for: 'summary' as const, reply: SUMMARY_ONE })))
  const meter = page.getByRole('meter', { name: 'Context usage' })
  const filler = 'We keep talking about the inventory service and its API design in some detail. '
  let i = 0
  for (; i < 12 && (await meter.getAttribute('data-prepared')) !== 'ready'; i++) {
    await sendAndWait(page, sessionId, `Turn ${i + 1}. ${filler.repeat(12)}`)
    await page.waitForTimeout(300)
  }
  await expect(meter).toHaveAttribute('data-prepared', 'ready')
  await meter.hover()
  await expect(
    page.getByRole('tooltip').getByText(/^Next summary ready: \d+ messages in [\d,]+ tokens\./)
  ).toBeVisible()
  await snapBoth(page, 'compression-prepared-ahead')
  await page.mouse.move(0, 0)
  let notice = false
  for (; i < 24 && !notice; i++) {
    await sendAndWait(page, sessionId, `Turn ${i + 1}. ${filler.repeat(12)}`)
    notice = await page.getByText('It was written ahead in the background, so your message did not wait.').isVisible()
  }
  expect(notice, 'the prepared summary never went in').toBe(true)
  await page.getByRole('button', { name: 'View summary' }).click()
  await expect(
    summaryRegion(page).getByText('designed a REST API for an inventory service', { exact: false })
  ).toBeVisible()
})

test('notifications can be switched off for auto-compression', async ({ page, distill }) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  await rpc(page, 'settings.update', {
    notifications: false,
    customModels: [{ provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 }]
  })
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai', modelId: 'tiny-4k' })
  const filler = 'We keep talking about the inventory service and its API design in some detail. '
  for (let i = 0; i < 12; i++) {
    await sendAndWait(page, sessionId, `Turn ${i + 1}. ${filler.repeat(40)}`)
    const { summary } = await rpc<{ summary: unknown }>(page, 'compression.active', { sessionId })
    if (summary) break
  }
  await expect(summaryRegion(page)).toBeVisible()
  await expect(page.getByText(/^Summarized \d+ messages/)).toHaveCount(0)
})

test('manual summarize with a focus, streamed, cancellable, with the composer usable meanwhile', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 4)
  const meter = page.getByRole('meter', { name: 'Context usage' })
  await expect.poll(() => valueOf(meter)).toBeGreaterThan(300)
  const before = await valueOf(meter)

  // The dialog shows what would happen (FR-2.3.2).
  await page.getByRole('button', { name: 'Summarize', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Summarize conversation history' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText('Messages in this chat')).toBeVisible()
  const stat = (n: number) => dialog.locator('.preview-stat-value').nth(n)
  await expect(stat(0)).toHaveText('8')
  // "Keep recent tokens" starts where Settings keeps them (1,000 by default), as automatic summaries do.
  const retention = dialog.getByRole('spinbutton', { name: 'Keep recent tokens' })
  await expect(retention).toHaveValue('1000')
  await expect(dialog.getByText('1,000 in Settings, as for automatic summaries', { exact: false })).toBeVisible()
  await page.keyboard.press('Escape')
  await rpc(page, 'settings.update', { retentionTokens: 600 })
  await page.getByRole('button', { name: 'Summarize', exact: true }).click()
  await expect(retention).toHaveValue('600')
  // This chat is smaller than that: the dialog says why there is nothing to summarize, and what to change.
  await expect(stat(1)).toHaveText('0')
  await expect(dialog.getByRole('status')).toHaveText(
    'All 8 messages fit in the 600 recent tokens kept word for word. Lower “Keep recent tokens” to summarize them.'
  )
  await expect(dialog.getByRole('button', { name: 'Summarize' })).toBeDisabled()
  await snap(page, 'summarize-dialog-all-kept')
  await retention.fill('200')
  await expect(stat(1)).toHaveText(/^[1-7]$/)
  await expect(dialog.getByText('Tokens after (estimated)')).toBeVisible()
  // Small chat: below the minimum for automatic compression, so a warning.
  await expect(dialog.getByText(/2,000 tokens/)).toBeVisible()
  const focus = dialog.getByRole('textbox', { name: 'Focus' })
  await expect(focus).toHaveAttribute('placeholder', 'e.g. keep the API design decisions')
  await focus.fill('keep the API design decisions')

  // The retention override re-fetches the numbers; nonsense is refused next to the field.
  await retention.fill('-5')
  await expect(dialog.getByText('Cannot be negative')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Summarize' })).toBeDisabled()
  await retention.fill('200')
  await expect(stat(1)).toHaveText(/^[1-7]$/)
  await expect(dialog.getByText(/The newest \d+ messages? stays? word for word/)).toBeVisible()
  await snapBoth(page, 'summarize-dialog')
  await retention.fill('')
  await expect(stat(1)).toHaveText('8')

  // A slow summary: it streams into the Summary region, and the chat goes on meanwhile.
  const chunks = SUMMARY_ONE.split(/(?<=\s)/)
  // Slow enough (45 chunks, about 11 s) that a loaded machine still sends the next message mid-summary.
  fake.script([{ chunks, delayMs: 250 }])
  await dialog.getByRole('button', { name: 'Summarize' }).click()
  await expect(dialog).toBeHidden()
  const region = summaryRegion(page)
  await expect(region.getByRole('status')).toHaveText('Summarizing 8 messages…')
  await expect(region.getByText('inventory service')).toBeVisible()
  await snapBoth(page, 'summarize-streaming')

  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('One more question while you summarize')
  await composer.press('Enter')
  await expect(page.getByText('Waiting for the summary…')).toBeVisible()

  await expect(page.getByText('Conversation summarized')).toBeVisible({ timeout: 40_000 })
  await expect(page.getByText(/[\d.]+k? → [\d.]+k? tokens/).first()).toBeVisible()
  await expect(page.getByText(/The user and the assistant designed a REST API/).first()).toBeVisible()
  await expect(page.getByText('Waiting for the summary…')).toBeHidden()
  await expect(page.getByRole('log', { name: 'Messages' }).getByText(/Reply to: One more question/)).toBeVisible()

  // The summarizer was asked for the focus.
  expect(JSON.stringify(fake.requests)).toContain('keep the API design decisions')

  await expandSummary(page)
  await expect(region.getByText('The API design decisions: JSON everywhere')).toBeVisible()
  await expect(region.getByText('keep the API design decisions')).toBeVisible()
  await expect(region.getByText('8 messages summarized')).toBeVisible()
  await expect.poll(() => valueOf(meter)).toBeLessThan(before + 200)
})

test('a running summary can be cancelled, and a failed one retried', async ({ page, distill, fake }) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 3)

  fake.script([{ chunks: SUMMARY_ONE.split(/(?<=\s)/), delayMs: 400 }])
  await page.keyboard.press('Control+Shift+S')
  const dialog = page.getByRole('dialog', { name: 'Summarize conversation history' })
  await expect(dialog).toBeVisible()
  // A chat smaller than the 1,000 recent tokens Settings keeps: summarize all of it.
  const retention = dialog.getByRole('spinbutton', { name: 'Keep recent tokens' })
  await retention.fill('0')
  await dialog.getByRole('button', { name: 'Summarize' }).click()
  const region = summaryRegion(page)
  await expect(region.getByRole('status')).toHaveText(/Summarizing \d+ messages…/)
  await region.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByText('Summary cancelled')).toBeVisible()
  await expect(region).toBeHidden()

  // A provider failure: the toast says so and offers Retry.
  fake.script([{ fault: 'http401' }])
  await page.getByRole('button', { name: 'Summarize', exact: true }).click()
  await retention.fill('0')
  await dialog.getByRole('button', { name: 'Summarize' }).click()
  await expect(page.getByText('Summary failed')).toBeVisible({ timeout: 20_000 })
  await snapBoth(page, 'summarize-failed-toast')
  fake.script([{ reply: SUMMARY_ONE }])
  await page.getByRole('button', { name: 'Retry' }).click()
  await expect(page.getByText('Conversation summarized')).toBeVisible({ timeout: 20_000 })
  await expect(region).toBeVisible()
})

test('undo restores the context, regenerate rewrites the summary', async ({ page, distill, fake }) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 4)
  const meter = page.getByRole('meter', { name: 'Context usage' })
  // The meter settles once the last reply is counted: read it when two readings agree.
  let full = 0
  await expect
    .poll(
      async () => {
        const previous = full
        full = await valueOf(meter)
        return full > 300 && full === previous
      },
      { intervals: [300, 300, 500, 1000] }
    )
    .toBe(true)

  fake.script([{ reply: SUMMARY_ONE }])
  await page.getByRole('button', { name: 'Summarize', exact: true }).click()
  // All of this small chat (Settings keeps 1,000 recent tokens word for word).
  await page.getByRole('dialog').getByRole('spinbutton', { name: 'Keep recent tokens' }).fill('0')
  // The target is a ceiling, said as one: never "aims at" more tokens than the chat has.
  await expect(
    page
      .getByRole('dialog')
      .getByText(/The summary (gets at most about [\d,]+ tokens|will be shorter than the messages it replaces)\./)
  ).toBeVisible()
  await page.getByRole('dialog').getByRole('button', { name: 'Summarize' }).click()
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Conversation summarized' })
  await expect(toast).toBeVisible({ timeout: 20_000 })
  await expect.poll(() => valueOf(meter)).toBeLessThan(full)
  const summarized = await valueOf(meter)

  // Regenerate: a new text for the same messages. While it runs, the toast stays off the strip's Cancel.
  const region = await expandSummary(page)
  await expect(region.getByText('The API design decisions: JSON everywhere')).toBeVisible()
  await expect(region.getByText(/\(by hand\)$/)).toBeVisible()
  fake.script([{ chunks: [SUMMARY_TWO.slice(0, 20), SUMMARY_TWO.slice(20)], delayMs: 2500 }])
  await region.getByRole('button', { name: 'Regenerate' }).click()
  const cancel = region.getByRole('button', { name: 'Cancel' })
  await expect(cancel).toBeVisible()
  await expect(toast).toBeVisible()
  expect(await overlaps(toast, cancel)).toBe(false)
  await snap(page, 'toast-clear-of-summary-strip')
  await expect(page.getByText('Summary regenerated')).toBeVisible({ timeout: 20_000 })
  await expect(region.getByText('A second, tighter take')).toBeVisible()
  await expect(region.getByText('The API design decisions: JSON everywhere')).toBeHidden()
  await expect(region.getByText(/\(regenerated\)$/)).toBeVisible()
  await snapBoth(page, 'summary-regenerated')

  // Full history over a toast: its header and Close stay uncovered.
  await page.getByRole('button', { name: 'View full history' }).click()
  const history = page.getByRole('dialog', { name: 'Full history' })
  const regenerated = page.locator('[data-sonner-toast]').filter({ hasText: 'Summary regenerated' })
  await expect(regenerated).toBeVisible()
  await expect.poll(() => overlaps(regenerated, history.getByRole('button', { name: 'Close' }))).toBe(false)
  expect(await overlaps(regenerated, history.getByRole('searchbox', { name: 'Search history' }))).toBe(false)
  await snap(page, 'toast-clear-of-full-history')
  await page.setViewportSize({ width: 1024, height: 700 })
  await expect.poll(() => overlaps(regenerated, history.getByRole('button', { name: 'Close' }))).toBe(false)
  expect(await overlaps(regenerated, history.getByRole('searchbox', { name: 'Search history' }))).toBe(false)
  await snap(page, 'toast-clear-of-full-history-1024')
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.keyboard.press('Escape')

  // Undo twice: back to the first summary, then to no summary at all; the meter grows back.
  await region.getByRole('button', { name: 'Undo' }).click()
  await expect(region.getByText('The API design decisions: JSON everywhere')).toBeVisible()
  await region.getByRole('button', { name: 'Undo' }).click()
  await expect(region).toBeHidden()
  await expect(page.getByRole('separator', { name: 'Active context starts here' })).toHaveCount(0)
  await expect.poll(() => valueOf(meter)).toBeGreaterThan(summarized)
  await expect.poll(() => valueOf(meter)).toBe(full)
})

test('the context inspector shows what the next request holds', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 3)
  await rpc(page, 'compression.run', { sessionId, retentionTokens: 150 })
  await expect(summaryRegion(page)).toBeVisible()
  await page.getByRole('textbox', { name: 'Message' }).fill('A draft that is pending')

  await page.getByRole('meter', { name: 'Context usage' }).click()
  const dialog = page.getByRole('dialog', { name: 'Context inspector' })
  await expect(dialog).toBeVisible()
  for (const part of [
    'System prompt',
    'Summary (of',
    'Retained messages',
    'Pending input (draft)',
    'Reserved output',
    'Safety margin',
    'Free space',
    'Auto-compression threshold (95% of usable)'
  ]) {
    await expect(dialog.getByRole('rowheader', { name: new RegExp(part.replace(/[()]/g, '\\$&')) })).toBeVisible()
  }
  await expect(dialog.getByRole('img', { name: /tokens in context/ })).toBeVisible()
  await expect(dialog.getByRole('row', { name: /Reserved output 16,384/ })).toBeVisible()
  await snapBoth(page, 'context-inspector')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await page.getByRole('button', { name: 'Inspect context' }).click()
  await expect(dialog).toBeVisible()
})

test('a chat can turn auto-compression off for itself', async ({ page, distill }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await page.getByRole('button', { name: 'Chat settings' }).click()
  const dialog = page.getByRole('dialog', { name: 'Chat settings' })
  const auto = dialog.getByRole('combobox', { name: 'Auto-compress this chat' })
  await expect(auto).toHaveValue('inherit')
  await auto.selectOption('off')
  await expect
    .poll(
      async () => (await rpc<{ autoCompress: boolean | null }>(page, 'sessions.get', { id: sessionId })).autoCompress
    )
    .toBe(false)
  await snapBoth(page, 'chat-settings')
  await auto.selectOption('inherit')
  await expect
    .poll(
      async () => (await rpc<{ autoCompress: boolean | null }>(page, 'sessions.get', { id: sessionId })).autoCompress
    )
    .toBe(null)
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(dialog).toBeHidden()
})

test('a chat can set its own context window, and the meter follows it', async ({ page, distill }) => {
  await page.goto(distill.url)
  await newChat(page)
  const meter = page.getByRole('meter', { name: 'Context usage' })
  await expect(meter).toContainText('/ 105.2k')
  await page.getByRole('button', { name: 'Chat settings' }).click()
  const dialog = page.getByRole('dialog', { name: 'Chat settings' })
  const field = dialog.getByRole('textbox', { name: 'Context window for this chat' })
  await expect(field).toHaveAttribute('placeholder', '128,000 (the model’s)')
  await field.fill('100')
  await field.press('Enter')
  await expect(dialog.getByRole('alert')).toContainText('At least 512 tokens')
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await field.fill('8,192')
  await field.press('Enter')
  await expect(dialog.getByRole('alert')).toBeHidden()
  await snapBoth(page, 'chat-settings-window')
  await dialog.getByRole('button', { name: 'Done' }).click()
  // 8,192 less half of it at most for the reply (gpt-4o-mini reserves 16,384) and a 5% margin.
  await expect(meter).toHaveAttribute('aria-valuemax', String(8192 - 4096 - 410))

  await page.getByRole('button', { name: 'Chat settings' }).click()
  await expect(field).toHaveValue('8192')
  await field.fill('')
  await field.press('Enter')
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(meter).toContainText('/ 105.2k')
})

test('when the summarization model fails, the quick offline summary stays and the notice says so', async ({
  page,
  distill
}) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  await rpc(page, 'settings.update', {
    customModels: [{ provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 }]
  })
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai', modelId: 'tiny-4k' })
  // The magic phrase makes the fake refuse any request whose last user message holds it: the
  // first reply, and later the summarizer's, whose prompt quotes the whole conversation.
  const filler = 'We keep talking about the inventory service and its API design in some detail. '
  await sendAndWait(page, sessionId, `Turn 1 [fake:401]. ${filler.repeat(40)}`)
  let notice = false
  for (let i = 1; i < 12 && !notice; i++) {
    await sendAndWait(page, sessionId, `Turn ${i + 1}. ${filler.repeat(40)}`)
    notice = await page
      .getByText(/^(Summarized \d+ messages · context now|The model summary could not be written)/)
      .isVisible()
  }
  expect(notice, 'auto-compression never ran').toBe(true)
  await expect(page.getByText('The model summary could not be written')).toBeVisible()
  await expect(page.getByText(/The quick offline summary stays in the context\.$/)).toBeVisible()
  await page.getByRole('button', { name: 'View summary' }).click()
  await expect(summaryRegion(page).getByText('Extractive (offline, no model call)')).toBeVisible()
})
