import type { Page } from '@playwright/test'
import { longConversation, newChat, rpc, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

const SECRET = 'The secret ingredient of the soup is cardamom, please remember it.'

/** A chat of `turns` exchanges whose second question holds the secret, summarized offline but for the newest. */
async function summarizedChat(page: Page, fake: Parameters<typeof longConversation>[1], turns: number) {
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, turns, (i) =>
    i === 1 ? SECRET : `Question ${i + 1}: what about part ${i + 1} of the plan, and who signs it off?`
  )
  await rpc(page, 'compression.run', { sessionId, retentionTokens: 400, summarizer: 'extractive' })
  const region = page.getByRole('region', { name: 'Summary' })
  await expect(region).toBeVisible()
  return sessionId
}

test('a line of the summary opens Full history at the message it came from', async ({ page, distill, fake }) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  await summarizedChat(page, fake, 12)

  const region = page.getByRole('region', { name: 'Summary' })
  await region.getByRole('button', { name: /messages summarized/ }).click()
  const text = region.getByRole('group', { name: 'Summary text' })
  const line = text.getByRole('listitem').filter({ hasText: 'cardamom' })
  await expect(line).toBeVisible()
  // Its source, by number, reachable by keyboard.
  const source = line.getByRole('button', { name: /^Open source of line \d+ in Full history: message #3$/ })
  await expect(source).toHaveText('#3')
  await expect(text.getByText(/Click a line, or its #number/)).toBeVisible()
  await line.hover()
  await snapBoth(page, 'summary-sources-panel')

  // A click on the line itself.
  await line.getByText('cardamom').click()
  const dialog = page.getByRole('dialog', { name: 'Full history' })
  await expect(dialog).toBeVisible()
  const list = dialog.getByRole('region', { name: 'All messages' })
  const target = list.getByRole('article', { name: 'You, message 3, not in active context' })
  await expect(target).toContainText(SECRET)
  await expect(target).toBeInViewport()
  await expect(target).toHaveAttribute('data-flash', 'true')
  await expect(target).toBeFocused()
  await snapBoth(page, 'summary-sources-history')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // By keyboard: the line's number, then Enter.
  await source.focus()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  await expect(list.getByRole('article', { name: 'You, message 3, not in active context' })).toBeFocused()
  await page.keyboard.press('Escape')

  // Every line with a source names one message of the summarized span.
  const names = await text
    .getByRole('button', { name: /^Open source of line/ })
    .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''))
  expect(names.length).toBeGreaterThan(3)
  for (const name of names) expect(name).toMatch(/^Open source of line \d+ in Full history: message #\d+$/)
})

test('the context inspector shows which messages the summary stands for, and opens them', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  await summarizedChat(page, fake, 8)

  await page.getByRole('button', { name: 'Inspect context' }).click()
  const inspector = page.getByRole('dialog', { name: 'Context inspector' })
  await expect(inspector).toBeVisible()
  const standsFor = inspector.getByText(/^Stands for \d+ messages$/)
  await standsFor.click()
  const sources = inspector.getByRole('list', { name: 'Messages the summary’s lines came from' })
  await expect(sources).toBeVisible()
  const item = sources.getByRole('button', { name: /cardamom/ })
  await expect(item).toContainText('#3')
  await snapBoth(page, 'summary-sources-inspector')

  await item.click()
  const dialog = page.getByRole('dialog', { name: 'Full history' })
  await expect(dialog).toBeVisible()
  await expect(inspector).toBeHidden()
  const target = dialog.getByRole('article', { name: 'You, message 3, not in active context' })
  await expect(target).toHaveAttribute('data-flash', 'true')
  await expect(target).toBeFocused()
})

test('a model’s summary links each line to its closest messages', async ({ page, distill, fake }) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 8, (i) =>
    i === 1 ? SECRET : `Question ${i + 1}: what about part ${i + 1} of the plan, and who signs it off?`
  )
  fake.script([
    {
      for: 'summary',
      reply: [
        '## Context',
        'The user is working through a plan part by part.',
        '',
        '## Key Points',
        '- The soup’s secret ingredient is cardamom; the user asked to remember it.',
        '- Each part of the plan needs someone to sign it off.'
      ].join('\n')
    }
  ])
  await rpc(page, 'compression.run', { sessionId, retentionTokens: 400, summarizer: 'llm' })
  const region = page.getByRole('region', { name: 'Summary' })
  await region.getByRole('button', { name: /messages summarized/ }).click()
  const text = region.getByRole('group', { name: 'Summary text' })
  const line = text.getByRole('listitem').filter({ hasText: 'cardamom' })
  // A line in other words names its closest match first (at most three).
  const first = line.getByRole('button', { name: /^Open source (1 )?of line \d+ in Full history/ }).first()
  await expect(first).toHaveText('#3')
  expect(await line.getByRole('button').count()).toBeLessThanOrEqual(3)
  await expect(text.getByText(/closest match/)).toBeVisible()
  await line.scrollIntoViewIfNeeded()
  await snapBoth(page, 'summary-sources-model')
  await first.click()
  await expect(
    page.getByRole('dialog', { name: 'Full history' }).getByRole('article', { name: /^You, message 3/ })
  ).toHaveAttribute('data-flash', 'true')
})
