import type { Locator, Page } from '@playwright/test'
import { longConversation, newChat, rpc, sendInComposer, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

/** Issue 37, item 14: the small things a daily user notices. */

/** The outlines drawn around an element and its message: [outline-style, outline-width] of each that has one. */
async function outlines(el: Locator): Promise<string[]> {
  return el.evaluate((node) => {
    const out: string[] = []
    for (const n of [node, ...node.querySelectorAll('*')]) {
      const style = getComputedStyle(n)
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
        out.push(`${n.className || n.tagName}: ${style.outlineStyle} ${style.outlineWidth}`)
    }
    return out
  })
}

/** Whether a colour is near white (each channel above 230). */
async function nearWhite(el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const [r, g, b] = (getComputedStyle(node).backgroundColor.match(/[\d.]+/g) ?? []).map(Number)
    return r! > 230 && g! > 230 && b! > 230
  })
}

test('a reply’s time lines up with its text, as a question’s does with its bubble', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  await newChat(page)
  fake.script([{ reply: 'Lisbon in October is mild; bring a light jacket.' }])
  await sendInComposer(page, 'What is Lisbon like in October?')
  const log = page.getByRole('log', { name: 'Messages' })
  const reply = log.getByRole('article').last()
  const question = log.getByRole('article').first()
  await reply.hover()
  await snapBoth(page, 'polish-reply-time')
  const [replyText, replyTime] = [
    await reply.locator('.message-body').boundingBox(),
    await reply.locator('.message-time').boundingBox()
  ]
  const [bubble, questionTime] = [
    await question.locator('.message-body').boundingBox(),
    await question.locator('.message-time').boundingBox()
  ]
  // The time starts where the reply's text starts; a question's ends where its bubble ends.
  expect(Math.abs(replyTime!.x - replyText!.x)).toBeLessThanOrEqual(1)
  expect(Math.abs(questionTime!.x + questionTime!.width - (bubble!.x + bubble!.width))).toBeLessThanOrEqual(1)
})

test('a message opened from a search is marked once, not ringed twice', async ({ page, distill, fake }) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 10, (i) =>
    i === 2 ? 'Remember that the night train to Zanzibarville leaves from platform 9.' : `Question ${i + 1}?`
  )
  await rpc(page, 'compression.run', { sessionId, retentionTokens: 400, summarizer: 'extractive' })

  // Full history: a hit chosen by keyboard.
  await page.getByRole('button', { name: 'View full history' }).click()
  const dialog = page.getByRole('dialog', { name: 'Full history' })
  await dialog.getByRole('searchbox', { name: 'Search history' }).fill('zanzibarville')
  const hit = dialog.getByRole('region', { name: 'Search results' }).getByRole('button', { name: /Zanzibarville/ })
  await hit.focus()
  await page.keyboard.press('Enter')
  const found = dialog.getByRole('article').filter({ hasText: 'night train to Zanzibarville' })
  await expect(found).toHaveAttribute('data-flash', 'true')
  await expect(found).toBeFocused()
  await snapBoth(page, 'polish-history-jump')
  expect(await outlines(found)).toHaveLength(1)
  await page.keyboard.press('Escape')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // The sidebar's search: ↓ to the passage, Enter.
  // From another chat, once it is ready (its composer takes focus when it opens).
  await newChat(page)
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused()
  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  const search = sidebar.getByRole('searchbox', { name: 'Search chats' })
  await search.fill('zanzibarville')
  const passage = sidebar.getByRole('group', { name: /^Matches in/ }).getByRole('link')
  await expect(passage).toBeVisible({ timeout: 15_000 })
  await passage.focus()
  await page.keyboard.press('Enter')
  const row = page.getByRole('log', { name: 'Messages' }).locator('.message-row', { hasText: 'Zanzibarville' })
  await expect(row).toHaveAttribute('data-jump-flash', '')
  await expect(row).toBeFocused()
  await snapBoth(page, 'polish-search-jump')
  expect(await outlines(row)).toHaveLength(1)
})

test('the inspector’s “Recalled from history” swatch has its colour in light mode', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 4)
  await rpc(page, 'compression.run', { sessionId, retentionTokens: 150, summarizer: 'extractive' })
  await page.emulateMedia({ colorScheme: 'light' })
  await page.getByRole('button', { name: 'Inspect context' }).click()
  const inspector = page.getByRole('dialog', { name: 'Context inspector' })
  const row = inspector.getByRole('row', { name: /Recalled from history/ })
  await expect(row).toBeVisible()
  await snapBoth(page, 'polish-recalled-swatch')
  expect(await nearWhite(row.locator('.swatch'))).toBe(false)
})

async function projectWithChat(page: Page, fake: { script(steps: Array<{ reply: string }>): void }) {
  await newChat(page)
  fake.script([{ reply: 'Noted.' }])
  await sendInComposer(page, 'Plan the ferry to Hydra.')
  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  await sidebar.getByRole('button', { name: 'New project' }).click()
  const naming = page.getByRole('dialog', { name: 'New project' })
  await naming.getByRole('textbox', { name: 'Name' }).fill('Greece 2026')
  await naming.getByRole('button', { name: 'Create' }).click()
  return sidebar.getByRole('region', { name: 'Project Greece 2026' })
}

test('project names in sentences go without quotation marks', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  const section = await projectWithChat(page, fake)
  await section.getByRole('button', { name: 'Actions for project Greece 2026' }).click()
  await page.getByRole('menuitem', { name: 'Allow Recall across its chats' }).click()
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'can recall each other' })
  await expect(toast).toBeVisible()
  await snapBoth(page, 'polish-project-toast')
  await expect(toast).toContainText('Chats in Greece 2026 can recall each other')
  await expect(toast.locator('em')).toHaveText('Greece 2026')
})
