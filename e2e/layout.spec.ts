import type { Page } from '@playwright/test'
import { longConversation, newChat, rpc, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

const log = (page: Page) => page.getByRole('log', { name: 'Messages' })

test('the sidebar folds away at every width (button and Ctrl+B) and the choice is remembered', async ({
  page,
  distill
}) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto(distill.url)
  await newChat(page)
  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  await expect(sidebar).toBeVisible()
  await sidebar.getByRole('button', { name: 'Hide chats' }).click()
  await expect(sidebar).toBeHidden()
  const show = page.getByRole('button', { name: 'Show chats' })
  await expect(show).toBeVisible()
  await snapBoth(page, 'layout-sidebar-collapsed')
  await page.reload()
  await expect(page.getByRole('button', { name: 'Show chats' })).toBeVisible()
  await expect(sidebar).toBeHidden()
  await page.keyboard.press('Control+b')
  await expect(sidebar).toBeVisible()
  await page.keyboard.press('Control+b')
  await expect(sidebar).toBeHidden()
  await show.click()
  await expect(sidebar).toBeVisible()

  // At 800 px the sidebar is a drawer over the chat, and the title keeps its words.
  await page.setViewportSize({ width: 800, height: 700 })
  await expect(sidebar).toBeHidden()
  await rpc(page, 'sessions.rename', {
    id: await page.evaluate(() => localStorage.getItem('distill.lastSession')),
    title: 'Harbour trip planning'
  })
  const title = page.getByRole('heading', { level: 1 })
  await expect(title).toHaveText('Harbour trip planning')
  expect((await title.boundingBox())!.width).toBeGreaterThan(100)
  await snapBoth(page, 'layout-800')
  await page.keyboard.press('Control+b')
  await expect(sidebar).toBeVisible()
  await snapBoth(page, 'layout-800-drawer')
  await page.keyboard.press('Escape')
  await expect(sidebar).toBeHidden()
})

test('scrolled up, "Jump to latest" brings the newest message back, and sending always shows your message', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(90_000)
  await page.setViewportSize({ width: 1024, height: 700 })
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 8)
  const scroller = log(page)
  // Highlighting arrives in its own chunk after the first paint, and then colours the code.
  await expect(scroller.locator('code.hljs .hljs-keyword').first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeHidden()
  await scroller.evaluate((el) => (el.scrollTop = 0))
  const jump = page.getByRole('button', { name: 'Jump to latest' })
  await expect(jump).toBeVisible()
  await snapBoth(page, 'layout-jump-to-latest')
  await jump.click()
  await expect(jump).toBeHidden()
  await expect.poll(() => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(40)

  await scroller.evaluate((el) => (el.scrollTop = 0))
  await expect(jump).toBeVisible()
  fake.script([{ reply: 'Noted.' }])
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('A last question from up here')
  await composer.press('Enter')
  await expect(scroller.getByText('A last question from up here')).toBeInViewport()
  await expect(jump).toBeHidden()

  // A toast stays clear of the composer and of the newest message.
  const newest = scroller.locator('article.message').last()
  await expect(newest).toContainText('Noted.')
  await newest.hover()
  await newest.getByRole('button', { name: 'Copy as Markdown' }).click()
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Copied as Markdown' })
  await expect(toast).toBeVisible()
  const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  const t = (await toast.boundingBox())!
  expect(overlaps(t, (await composer.boundingBox())!)).toBe(false)
  expect(overlaps(t, (await newest.boundingBox())!)).toBe(false)
  await snapBoth(page, 'layout-toast')
})
