import type { DistillServer } from './support/distill-server'
import { expect, test } from './support/fixtures'
import { chatGptConversation, serveImported } from './support/imported-chats'

/**
 * Many chats, imported from one ChatGPT export the way a person brings their history in: the
 * sidebar lists them a page at a time and loads more as it scrolls, and a search for a word in
 * most of them shows the best hit first.
 */

const CHATS = 260
let server: DistillServer

/** Chat n (1 = oldest): every one mentions the lighthouse; chat 7 is about nothing else. */
function conversation(n: number) {
  const texts =
    n === 7
      ? ['Lighthouse?', 'Lighthouse, lighthouse.']
      : [
          `Question ${n}: what did the lighthouse keeper log on day ${n}?`,
          `On day ${n} the keeper logged the weather, the ships and the lighthouse lamp, as every day.`
        ]
  return chatGptConversation(`Keeper's log ${String(n).padStart(3, '0')}`, texts, 1_700_000_000 + n * 100)
}

test.beforeEach(async ({ fake }) => {
  test.setTimeout(300_000)
  server = await serveImported(
    Array.from({ length: CHATS }, (_, i) => conversation(i + 1)),
    fake
  )
})

test.afterEach(async () => {
  await server?.stop()
})

test('the sidebar lists chats a page at a time and loads the next page as it scrolls', async ({ page }) => {
  await page.goto(server.url)
  const list = page.getByRole('list', { name: 'All chats' })
  await expect(list.getByRole('listitem').first()).toBeVisible()
  const first = await list.getByRole('listitem').count()
  expect(first).toBeLessThan(CHATS)
  // Scrolling to the end of the list brings the rest in, page by page, without repeats.
  await expect(async () => {
    await page.locator('.sidebar-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight))
    expect(await list.getByRole('listitem').count()).toBe(CHATS)
  }).toPass({ timeout: 30_000 })
  await expect(list.getByRole('link', { name: /Keeper's log 001/ })).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'More chats' })).toHaveCount(0)
})

test('a search for a word in every chat shows the best hit first, at the top of the sidebar', async ({ page }) => {
  await page.goto(server.url)
  // Read down the list first: the results must not open where the list was scrolled to.
  await expect(page.getByRole('list', { name: 'All chats' }).getByRole('listitem').first()).toBeVisible()
  await page.locator('.sidebar-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2))
  await page.getByRole('searchbox').fill('lighthouse')
  const results = page.getByRole('list', { name: 'Chats matching “lighthouse”' })
  await expect(results.getByRole('listitem').first()).toContainText("Keeper's log 007")
  await expect.poll(() => page.locator('.sidebar-scroll').evaluate((el) => el.scrollTop)).toBe(0)
})
