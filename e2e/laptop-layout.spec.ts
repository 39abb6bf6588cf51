import type { Locator, Page } from '@playwright/test'
import { longConversation, newChat, openNewChat, rpc, snapBoth } from './support/conversation'
import { startDistill } from './support/distill-server'
import { expect, test } from './support/fixtures'

/**
 * A laptop screen (1024×700, the sidebar open): what a person would notice, measured. The message
 * box stays on screen whatever the Summary panel holds, a notice never sits on a control, and the
 * header fits: nothing is half off-screen and nothing scrolls the whole app.
 */

const LAPTOP = { width: 1024, height: 700 }
const DESKTOP = { width: 1440, height: 900 }

type Rect = { x: number; y: number; width: number; height: number }

const intersects = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

async function rect(locator: Locator): Promise<Rect> {
  const r = await locator.boundingBox()
  if (!r) throw new Error(`${locator.toString()} is not on screen`)
  return r
}

/** Fully inside the window. */
async function expectOnScreen(page: Page, locator: Locator): Promise<void> {
  const r = await rect(locator)
  const { width, height } = page.viewportSize()!
  expect(r.x, 'left edge').toBeGreaterThanOrEqual(0)
  expect(r.y, 'top edge').toBeGreaterThanOrEqual(0)
  expect(r.x + r.width, 'right edge').toBeLessThanOrEqual(width)
  expect(r.y + r.height, 'bottom edge').toBeLessThanOrEqual(height)
}

/**
 * The boxes of every button, field and link shown in the window (the part not scrolled out of sight
 * inside a scrolling panel), outside the notices themselves.
 */
async function shownControls(page: Page): Promise<Array<Rect & { name: string }>> {
  return page.evaluate(() => {
    const out: Array<{ x: number; y: number; width: number; height: number; name: string }> = []
    for (const el of document.querySelectorAll('button, input, textarea, select, a[href], [role="button"]')) {
      if (el.closest('[data-sonner-toaster]') || getComputedStyle(el).visibility === 'hidden') continue
      const r = el.getBoundingClientRect()
      let [top, right, bottom, left] = [r.top, r.right, r.bottom, r.left]
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (getComputedStyle(a).overflow === 'visible') continue
        const c = a.getBoundingClientRect()
        ;[top, right, bottom, left] = [
          Math.max(top, c.top),
          Math.min(right, c.right),
          Math.min(bottom, c.bottom),
          Math.max(left, c.left)
        ]
      }
      ;[top, right, bottom, left] = [
        Math.max(top, 0),
        Math.min(right, innerWidth),
        Math.min(bottom, innerHeight),
        Math.max(left, 0)
      ]
      if (right <= left || bottom <= top) continue
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.tagName
      out.push({ x: left, y: top, width: right - left, height: bottom - top, name })
    }
    return out
  })
}

/** A chat with a summary in use and a draft waiting for review (Summarize by hand, reviewing on). */
async function chatWithWaitingDraft(page: Page, fake: Parameters<typeof longConversation>[1]): Promise<string> {
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 14)
  await rpc(page, 'compression.run', { sessionId, summarizer: 'extractive', retentionTokens: 600 })
  await rpc(page, 'sessions.update', { id: sessionId, reviewSummaries: true })
  await longConversation(page, fake, sessionId, 6)
  await rpc(page, 'compression.run', { sessionId, summarizer: 'extractive', retentionTokens: 600 })
  return sessionId
}

test('with a draft waiting, the message box stays on screen and the Summary panel scrolls inside a bounded height', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(150_000)
  await page.setViewportSize(LAPTOP)
  await page.goto(distill.url)
  await chatWithWaitingDraft(page, fake)

  const panel = page.getByRole('region', { name: 'Summary' })
  const draft = panel.getByRole('group', { name: 'Draft summary', exact: true })
  const toggle = panel.getByRole('button', { name: /messages summarized/ })
  const message = page.getByRole('textbox', { name: 'Message' })
  const log = page.getByRole('log', { name: 'Messages' })
  await expect(draft).toBeVisible()

  const bounded = async () => {
    // The text box, whole, in the window; the panel ends above the conversation, which keeps some lines.
    await expectOnScreen(page, message)
    const p = await rect(panel)
    const l = await rect(log)
    expect(p.y + p.height).toBeLessThanOrEqual(l.y + 1)
    expect(l.height).toBeGreaterThanOrEqual(120)
    expect(p.y + p.height).toBeLessThanOrEqual((await rect(message)).y)
    // The bar with its toggle is always in view, and the draft's decision can be reached.
    await expectOnScreen(page, toggle)
    await draft.getByRole('button', { name: 'Accept' }).scrollIntoViewIfNeeded()
    await expectOnScreen(page, draft.getByRole('button', { name: 'Accept' }))
    await expectOnScreen(page, message)
    return p
  }

  // Collapsed: the draft alone.
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  const collapsed = await bounded()
  expect(collapsed.height).toBeLessThanOrEqual(380)
  await snapBoth(page, 'laptop-draft-collapsed')

  // Expanded: the draft and the summary in use, more than the room there is. The panel keeps its
  // height and scrolls inside; the conversation and the message box do not move.
  await toggle.click()
  await expect(panel.getByRole('button', { name: 'Undo' })).toBeAttached()
  const expanded = await bounded()
  expect(expanded.height).toBeLessThanOrEqual(400)
  const scroll = await panel.evaluate((el) => ({ client: el.clientHeight, content: el.scrollHeight }))
  expect(scroll.content).toBeGreaterThan(scroll.client)
  const before = await rect(message)
  await panel.evaluate((el) => (el.scrollTop = el.scrollHeight))
  await expect(panel.getByRole('button', { name: 'Undo' })).toBeInViewport()
  await expectOnScreen(page, toggle)
  expect(await rect(message)).toEqual(before)
  await snapBoth(page, 'laptop-draft-expanded-scrolled')
  await panel.evaluate((el) => (el.scrollTop = 0))
  await snapBoth(page, 'laptop-draft-expanded')

  // The same at 1440×900.
  await page.setViewportSize(DESKTOP)
  await bounded()
  await snapBoth(page, 'desktop-draft-expanded')
  await page.setViewportSize(LAPTOP)

  // Accept: the notice appears away from the pointer (on Accept a moment ago) and from every control.
  const accept = draft.getByRole('button', { name: 'Accept' })
  await accept.scrollIntoViewIfNeeded()
  const acceptBox = await rect(accept)
  await accept.click()
  await expect(draft).toBeHidden()
  const notice = page.locator('[data-sonner-toast]').filter({ hasText: 'Summary accepted' })
  await expect(notice).toBeVisible()
  await page.waitForTimeout(500) // its entrance, and the panel settling without the draft
  const n = await rect(notice)
  expect(intersects(n, acceptBox), 'the notice sits where Accept was clicked').toBe(false)
  expect(intersects(n, await rect(page.locator('.composer-box'))), 'the notice covers the message box').toBe(false)
  expect(intersects(n, await rect(panel)), 'the notice covers the Summary panel').toBe(false)
  const covered = (await shownControls(page)).filter((c) => intersects(n, c)).map((c) => c.name)
  expect(covered, 'buttons under the notice').toEqual([])
  // Every summary control and the message box take a click at once (nothing on top of them).
  for (const name of ['Undo', 'Regenerate', 'Edit'])
    await panel.getByRole('button', { name, exact: true }).click({ trial: true, timeout: 2_000 })
  await message.click({ trial: true, timeout: 2_000 })
  await snapBoth(page, 'laptop-accepted-notice')
})

test('at 1024 px with the sidebar open the header fits, and its menu scrolls nothing sideways', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(90_000)
  await page.setViewportSize(LAPTOP)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 2)
  // The fullest header: New topic (tiered strategy) and "set it" for a local model whose window is unknown.
  await rpc(page, 'sessions.update', {
    id: sessionId,
    strategy: 'tiered',
    provider: 'openai-compatible',
    modelId: 'a-local-model-with-a-long-name:latest'
  })
  await expect(page.getByRole('button', { name: 'New topic' })).toBeVisible()
  await expect(page.getByRole('button', { name: /set it/ })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Chats' })).toBeVisible()

  const header = page.locator('.chat-pane .pane-header')
  const more = page.getByRole('button', { name: 'More actions' })
  const scrolled = () =>
    page.evaluate(() => ({
      app: [document.querySelector('.app')!.scrollLeft, document.querySelector('.app')!.scrollTop],
      page: [document.scrollingElement!.scrollLeft, document.scrollingElement!.scrollTop]
    }))
  const fits = async () => {
    await expectOnScreen(page, more)
    const { scrollWidth, clientWidth } = await header.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth
    }))
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
    for (const button of await header.getByRole('button').all())
      if (await button.isVisible()) await expectOnScreen(page, button)
  }
  await fits()
  await snapBoth(page, 'laptop-header')

  await more.click()
  const menu = page.getByRole('menu')
  await expect(menu).toBeVisible()
  await expectOnScreen(page, menu)
  await snapBoth(page, 'laptop-header-menu')
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  expect(await scrolled()).toEqual({ app: [0, 0], page: [0, 0] })
  await fits()

  // Other widths, the sidebar open and put away.
  for (const width of [901, 960, 1100, 1280, 1440]) {
    await page.setViewportSize({ width, height: 800 })
    await fits()
  }
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Hide chats' }).click()
  for (const width of [901, 960, 1024]) {
    await page.setViewportSize({ width, height: 800 })
    await fits()
  }
  await page.setViewportSize(DESKTOP)
  await snapBoth(page, 'desktop-header')
})

test('"Set up a provider" opens Settings without shifting the page, and Back to chat stays in view', async ({
  page
}) => {
  const bare = await startDistill() // no provider keys: the chat offers to set one up
  try {
    await page.setViewportSize(LAPTOP)
    await page.goto(bare.url)
    await openNewChat(page)
    await page.getByRole('button', { name: 'Set up a provider' }).click()
    await expect(page.getByRole('heading', { name: 'Providers' })).toBeFocused()
    const back = page.getByRole('button', { name: 'Back to chat' })
    await expectOnScreen(page, back)
    expect(await rect(page.locator('.settings-pane .pane-header'))).toMatchObject({ x: 280, y: 0 })
    expect(
      await page.evaluate(() => [document.scrollingElement!.scrollTop, document.querySelector('.app')!.scrollTop])
    ).toEqual([0, 0])
    await snapBoth(page, 'laptop-setup-provider')

    await back.click()
    const chatHeader = page.locator('.chat-pane .pane-header')
    await expect(chatHeader).toBeVisible()
    expect((await rect(chatHeader)).y).toBe(0)
    await expectOnScreen(page, page.getByRole('button', { name: 'More actions' }))
    await expectOnScreen(page, page.getByRole('textbox', { name: 'Message' }))
  } finally {
    await bare.stop()
  }
})
