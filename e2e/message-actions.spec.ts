import type { Page } from '@playwright/test'
import { expectAccessible, longConversation, newChat, rpc, sendInComposer, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

const log = (page: Page) => page.getByRole('log', { name: 'Messages' })
const messages = (page: Page) => log(page).locator('article.message')
/** The article of the message showing `text`. */
const messageWith = (page: Page, text: string) => messages(page).filter({ hasText: text })

test('copy as Markdown, regenerate with versions ‹ 1/2 ›, and edit-and-resend keeping the previous turns', async ({
  page,
  distill,
  fake
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(distill.url)
  await newChat(page)
  fake.script([{ reply: 'Take the **08:15** ferry.' }])
  await sendInComposer(page, 'Which ferry should I take?\nI land at 7.')
  fake.script([{ reply: 'Pier 3, by the fish market.' }])
  await sendInComposer(page, 'Where does it leave from?')

  // Your messages are Markdown too, with your line breaks kept.
  const question = messageWith(page, 'Which ferry should I take?')
  await expect(question.locator('br')).toHaveCount(1)

  // Copy: the Markdown source, not the rendered text.
  const reply = messageWith(page, 'Take the')
  await reply.hover()
  await reply.getByRole('button', { name: 'Copy as Markdown' }).click()
  await expect(page.getByText('Copied as Markdown')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Take the **08:15** ferry.')

  // Regenerate: the new reply is 2/2; the old one and the turns after it are version 1.
  fake.script([{ reply: 'The 09:40 ferry is quieter.' }])
  await reply.hover()
  await reply.getByRole('button', { name: 'Regenerate reply' }).click()
  await expect(log(page).getByText('The 09:40 ferry is quieter.')).toBeVisible()
  await expect(log(page).getByText('Where does it leave from?')).toBeHidden()
  const regenerated = messageWith(page, 'The 09:40 ferry')
  await expect(regenerated.getByLabel('Version 2 of 2')).toBeVisible()
  await snapBoth(page, 'message-versions')
  await regenerated.getByRole('button', { name: 'Previous version' }).click()
  await expect(log(page).getByText('Take the')).toBeVisible()
  await expect(log(page).getByText('Pier 3, by the fish market.')).toBeVisible()
  await expect(messageWith(page, 'Take the').getByLabel('Version 1 of 2')).toBeVisible()
  await expect(messages(page)).toHaveCount(4)

  // Edit your message and send: the original and its replies stay as version 1.
  const where = messageWith(page, 'Where does it leave from?')
  await where.hover()
  await where.getByRole('button', { name: 'Edit message' }).click()
  const editor = page.getByRole('textbox', { name: 'Edit message' })
  await expect(editor).toBeFocused()
  await expect(editor).toHaveValue('Where does it leave from?')
  await snapBoth(page, 'message-editing')
  await editor.press('Escape')
  await expect(editor).toBeHidden()
  await where.hover()
  await where.getByRole('button', { name: 'Edit message' }).click()
  fake.script([{ reply: 'Yes, bikes ride free.' }])
  await editor.fill('Can I bring a bike?')
  await editor.press('Enter')
  await expect(log(page).getByText('Yes, bikes ride free.')).toBeVisible()
  await expect(log(page).getByText('Pier 3, by the fish market.')).toBeHidden()
  await expect(messageWith(page, 'Can I bring a bike?').getByLabel('Version 2 of 2')).toBeVisible()
  // The request for the edited message carried the history before it, not the old turn.
  const sent = JSON.stringify(fake.requests.filter((r) => r.inputTokens !== undefined).at(-1)!.body)
  expect(sent).toContain('Take the **08:15** ferry.')
  expect(sent).not.toContain('Where does it leave from?')

  // The right-click menu offers the same.
  await messageWith(page, 'Can I bring a bike?').click({ button: 'right' })
  const menu = page.getByRole('menu', { name: 'Message actions' })
  await expect(menu.getByRole('menuitem', { name: 'Previous version' })).toBeVisible()
  await snapBoth(page, 'message-context-menu')
  await menu.getByRole('menuitem', { name: 'Previous version' }).click()
  await expect(log(page).getByText('Pier 3, by the fish market.')).toBeVisible()
  await expectAccessible(page)
})

test('a summarized message is read-only and says why', async ({ page, distill, fake }) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 6)
  await rpc(page, 'compression.run', { sessionId, summarizer: 'extractive', retentionTokens: 200 })
  await page.reload()
  const first = messages(page).first()
  await expect(first).toHaveAttribute('data-in-context', 'false')
  await first.hover()
  const change = first.getByRole('button', { name: /Edit message|Regenerate reply/ })
  await expect(change).toHaveAttribute('aria-disabled', 'true')
  await expect(change).toHaveAttribute('title', /Already summarized/)
  // Playwright waits for an aria-disabled button to become enabled; a person's click is a plain event.
  await change.dispatchEvent('click')
  await expect(page.getByRole('textbox', { name: 'Edit message' })).toBeHidden()
  await first.click({ button: 'right' })
  await expect(page.getByRole('menu', { name: 'Message actions' })).toContainText('Already summarized')
})
