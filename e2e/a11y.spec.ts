import type { Page } from '@playwright/test'
import { expectNoSeriousViolations, longConversation, newChat, rpc, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

/** Switches the colour scheme and waits until the page shows it: media query applied, colour transitions over. */
async function showScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme })
  await page.evaluate(async (dark) => {
    if (matchMedia('(prefers-color-scheme: dark)').matches !== dark) throw new Error('The colour scheme did not apply.')
    await new Promise(requestAnimationFrame) // lets the new colours start their transitions
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)))
  }, scheme === 'dark')
}

/**
 * axe-core on every compression screen, in the light and the dark scheme, with a long conversation
 * (Markdown, code blocks, a summary): no serious or critical violations.
 */
test('the chat, its dialogs and Settings have no serious accessibility violations', async ({ page, distill, fake }) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 14)
  await rpc(page, 'compression.run', { sessionId, retentionTokens: 600 })
  const region = page.getByRole('region', { name: 'Summary' })
  await expect(region).toBeVisible()

  // The chat, with the Summary region expanded.
  await region.getByRole('button', { name: /messages summarized/ }).click()
  await expect(region.getByRole('button', { name: 'Undo' })).toBeVisible()
  await snapBoth(page, 'a11y-chat-summary')
  for (const scheme of ['light', 'dark'] as const) {
    await showScheme(page, scheme)
    await expectNoSeriousViolations(page)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await region.getByRole('button', { name: /messages summarized/ }).click()

  // Summarized messages, dimmed: still readable (contrast) in both schemes.
  const log = page.getByRole('log', { name: 'Messages' })
  await log.evaluate((el) => (el.scrollTop = 0))
  await expect(log.getByText('Not in context').first()).toBeVisible()
  for (const scheme of ['light', 'dark'] as const) {
    await showScheme(page, scheme)
    await expectNoSeriousViolations(page)
  }
  await page.emulateMedia({ colorScheme: 'light' })

  // The summarize dialog.
  await page.getByRole('button', { name: 'Summarize', exact: true }).click()
  const summarize = page.getByRole('dialog', { name: 'Summarize conversation history' })
  // What the summary left verbatim fits in the 1,000 recent tokens Settings keeps: all of it, then.
  await summarize.getByRole('spinbutton', { name: 'Keep recent tokens' }).fill('0')
  await expect(summarize.getByRole('button', { name: 'Summarize' })).toBeEnabled()
  await expectNoSeriousViolations(page)
  await page.keyboard.press('Escape')
  await expect(summarize).toBeHidden()

  // The context inspector, from the meter by keyboard.
  await page.getByRole('meter', { name: 'Context usage' }).focus()
  await page.keyboard.press('Enter')
  const inspector = page.getByRole('dialog', { name: 'Context inspector' })
  await expect(inspector).toBeVisible()
  await expectNoSeriousViolations(page)
  await page.keyboard.press('Escape')
  await expect(page.getByRole('meter', { name: 'Context usage' })).toBeFocused()

  // Full history, searching.
  await page.getByRole('button', { name: 'View full history' }).click()
  const history = page.getByRole('dialog', { name: 'Full history' })
  await history.getByRole('searchbox', { name: 'Search history' }).fill('database')
  await expect(history.getByRole('region', { name: 'Search results' }).getByRole('status')).toHaveText(/\d+ match/)
  for (const scheme of ['light', 'dark'] as const) {
    await showScheme(page, scheme)
    await expectNoSeriousViolations(page)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.keyboard.press('Escape') // clears the search
  await page.keyboard.press('Escape') // closes
  await expect(history).toBeHidden()

  // Chat settings.
  await page.getByRole('button', { name: 'Chat settings' }).click()
  await expect(page.getByRole('dialog', { name: 'Chat settings' })).toBeVisible()
  await expectNoSeriousViolations(page)
  await page.keyboard.press('Escape')

  // Settings.
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('spinbutton', { name: 'Threshold' })).toBeVisible()
  await expectNoSeriousViolations(page)
})

test('messages can be read with the keyboard, with a visible focus ring', async ({ page, distill, fake }) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 8)
  const log = page.getByRole('log', { name: 'Messages' })
  await log.focus()
  await page.keyboard.press('Alt+ArrowUp')
  const focused = page.locator('.message-row:focus')
  await expect(focused).toHaveCount(1)
  const first = Number(await focused.getAttribute('data-index'))
  await page.keyboard.press('Alt+ArrowUp')
  await page.keyboard.press('Alt+ArrowUp')
  await expect(page.locator('.message-row:focus')).toHaveAttribute('data-index', String(first - 2))
  await expect(page.locator('.message-row:focus')).toHaveAttribute('data-keyboard-focus', 'true')
  expect(await page.locator('.message-row:focus').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid')
  await snapBoth(page, 'keyboard-message-focus')
  await page.keyboard.press('Alt+ArrowDown')
  await expect(page.locator('.message-row:focus')).toHaveAttribute('data-index', String(first - 1))

  // Tab goes on into the message: its code block's Copy button, with a visible focus ring.
  await page.keyboard.press('Tab')
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement
    return { text: el.textContent, visible: el.matches(':focus-visible'), outline: getComputedStyle(el).outlineStyle }
  })
  expect(ring.visible).toBe(true)
  expect(ring.outline).not.toBe('none')
  await expect(log.getByRole('button', { name: 'Copy' }).first()).toBeVisible()
})

test('Settings show every compression field with its default, and refuse invalid values next to the field', async ({
  page,
  distill
}) => {
  await page.goto(distill.url)
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  const fields: Array<[role: 'spinbutton' | 'combobox' | 'switch' | 'textbox', name: string, hint: RegExp]> = [
    ['switch', 'Compress automatically', /Default: on/],
    ['spinbutton', 'Threshold', /Default: 95%/],
    ['spinbutton', 'Recent tokens kept verbatim', /Default: 1,000 tokens/],
    ['spinbutton', 'Safety margin', /Default: 5%/],
    ['spinbutton', 'Minimum tokens', /Default: 2,000 tokens/],
    ['combobox', 'Strategy', /Default: Rolling/],
    ['combobox', 'Summarizer', /Default: LLM/],
    ['textbox', 'Summarization model', /Default: the chat’s own model/],
    ['switch', 'Show notifications', /Default: on/]
  ]
  for (const [role, name, hint] of fields) {
    const field = page.getByRole(role, { name, exact: true })
    await expect(field, name).toBeVisible()
    await expect(field, name).toHaveAccessibleDescription(hint)
  }
  const threshold = page.getByRole('spinbutton', { name: 'Threshold' })
  await threshold.fill('120')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(threshold).toHaveAttribute('aria-invalid', 'true')
  await expect(threshold).toHaveAccessibleDescription(/At most 99%/)
  await snapBoth(page, 'settings-compression-invalid')
})
