import type { Page } from '@playwright/test'
import { longConversation, newChat, rpc, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

const SECRET = 'The secret ingredient of the soup is cardamom, please remember it.'

/** A chat of `turns` exchanges whose second question holds the secret, summarized but for the newest ones. */
async function summarizedChat(
  page: Page,
  fake: Parameters<typeof longConversation>[1],
  turns: number
): Promise<string> {
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, turns, (i) =>
    i === 1 ? SECRET : `Question ${i + 1}: what about part ${i + 1} of the plan?`
  )
  await rpc(page, 'compression.run', { sessionId, retentionTokens: 400 })
  await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible()
  return sessionId
}

test('full history lists every message, marks the summarized ones, and stays virtualized', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  await summarizedChat(page, fake, 30)

  await page.getByRole('button', { name: 'View full history' }).click()
  const dialog = page.getByRole('dialog', { name: 'Full history' })
  await expect(dialog).toBeVisible()
  const list = dialog.getByRole('region', { name: 'All messages' })
  await expect(list.getByRole('article').first()).toBeVisible()
  await expect(list.getByText('Not in active context').first()).toBeVisible()
  await expect(dialog.getByText(/are represented by the summary/)).toBeVisible()
  // 60 messages, only a screenful in the page.
  const rendered = await list.getByRole('article').count()
  expect(rendered).toBeGreaterThan(3)
  expect(rendered).toBeLessThan(40)
  await snapBoth(page, 'history-dialog')

  // The end of the list: the divider, then the messages still in the context.
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight))
  await expect(list.getByRole('separator', { name: 'Active context starts here' })).toBeVisible()
  const last = list.getByRole('article').last()
  await expect(last).not.toContainText('Not in active context')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  // Focus goes back to the button that opened it.
  await expect(page.getByRole('button', { name: 'View full history' })).toBeFocused()
})

test('search finds a summarized message, highlights the match, and jumps to it', async ({ page, distill, fake }) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  await summarizedChat(page, fake, 30)

  await page.getByRole('button', { name: 'View full history' }).click()
  const dialog = page.getByRole('dialog', { name: 'Full history' })
  const list = dialog.getByRole('region', { name: 'All messages' })
  // Start far away from the message to find.
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight))

  const search = dialog.getByRole('searchbox', { name: 'Search history' })
  await search.fill('cardamom')
  const results = dialog.getByRole('region', { name: 'Search results' })
  await expect(results.getByRole('status')).toHaveText('1 match')
  const hit = results.getByRole('button', { name: /cardamom/ })
  await expect(hit).toBeVisible()
  await expect(hit.locator('mark')).toHaveText('cardamom')
  await expect(hit).toContainText('Not in active context')
  await snapBoth(page, 'history-search')

  await hit.click()
  const target = list.getByRole('article').filter({ hasText: SECRET })
  await expect(target).toBeVisible()
  await expect(target).toBeInViewport()
  await expect(target).toHaveAttribute('data-flash', 'true')
  await expect(target).toBeFocused()
  await expect(target).toContainText('Not in active context')
  await snapBoth(page, 'history-jump')
  await expect(target).not.toHaveAttribute('data-flash', 'true', { timeout: 5000 })

  // A word of a recent message: found, and in the context.
  await search.fill('part 30')
  await expect(results.getByRole('status')).toHaveText(/\d+ match/)
  const recent = results.getByRole('button', { name: /Question 30/ })
  await expect(recent).toBeVisible()
  await expect(recent).not.toContainText('Not in active context')

  // Nothing found says so; Escape clears the search before it closes the dialog.
  await search.fill('zanzibar')
  await expect(results.getByRole('status')).toHaveText('No matches for “zanzibar”')
  await search.press('Escape')
  await expect(search).toHaveValue('')
  await expect(dialog).toBeVisible()
  await expect(results).toBeHidden()
})

test('summarized messages stay in the chat, dimmed and marked, below the divider line', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  await summarizedChat(page, fake, 8)
  const log = page.getByRole('log', { name: 'Messages' })
  const divider = log.getByRole('separator', { name: 'Active context starts here' })
  await divider.scrollIntoViewIfNeeded()
  await expect(divider).toBeVisible()
  await snapBoth(page, 'chat-context-divider')
  await log.evaluate((el) => (el.scrollTop = 0))
  await expect(log.getByText(SECRET)).toBeVisible()
  const secret = log.getByRole('article').filter({ hasText: SECRET })
  await expect(secret).toHaveAttribute('data-in-context', 'false')
  await expect(secret.getByText('Not in context')).toBeVisible()
})

test('the conversation follows a streaming reply, unless the reader scrolled up', async ({ page, distill, fake }) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 6)
  const log = page.getByRole('log', { name: 'Messages' })
  const distanceFromBottom = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)

  fake.script([{ chunks: Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of a long answer.\n\n`), delayMs: 60 }])
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('Write a long answer')
  await composer.press('Enter')
  await expect(log.getByText('Line 10 of a long answer.')).toBeVisible()
  expect(await distanceFromBottom()).toBeLessThan(130)

  // Scrolled up: the reply goes on growing below, and the view stays where the reader put it.
  await log.hover()
  await page.mouse.wheel(0, -1500)
  await expect.poll(distanceFromBottom).toBeGreaterThan(600)
  const top = await log.evaluate((el) => el.scrollTop)
  await expect(log.getByText('Line 40 of a long answer.')).toBeAttached({ timeout: 10_000 })
  expect(Math.abs((await log.evaluate((el) => el.scrollTop)) - top)).toBeLessThan(5)
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 })
})
