import { expect, test } from './support/fixtures'
import { chatGptConversation, serveImportedEach } from './support/imported-chats'

/**
 * Many chats, imported from one ChatGPT export the way a person brings their history in: the
 * sidebar lists them a page at a time and loads more as it scrolls, and a search for a word in
 * most of them shows the best hit first.
 */

const CHATS = 260

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

const served = serveImportedEach(() => Array.from({ length: CHATS }, (_, i) => conversation(i + 1)))

test('the sidebar lists chats a page at a time and loads the next page as it scrolls', async ({ page }) => {
  await page.goto(served().url)
  const list = page.getByRole('list', { name: 'All chats' })
  await expect(list.getByRole('listitem').first()).toBeVisible()
  await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-setsize', '-1')
  // Scrolling to the end of the list brings the rest in, page by page, without repeats: the last
  // row is the oldest chat, at the place the whole list gives it.
  await expect(async () => {
    await page.locator('.sidebar-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight))
    await expect(list.getByRole('listitem').last()).toHaveAttribute('aria-posinset', String(CHATS), { timeout: 500 })
  }).toPass({ timeout: 30_000 })
  await expect(list.getByRole('listitem').last()).toHaveAttribute('aria-setsize', String(CHATS))
  await expect(list.getByRole('link', { name: /Keeper's log 001/ })).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'More chats' })).toHaveCount(0)
})

test('a search for a word in every chat shows the best hit first, at the top of the sidebar', async ({ page }) => {
  await page.goto(served().url)
  // Read down the list first: the results must not open where the list was scrolled to.
  await expect(page.getByRole('list', { name: 'All chats' }).getByRole('listitem').first()).toBeVisible()
  await page.locator('.sidebar-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2))
  await page.getByRole('searchbox').fill('lighthouse')
  const results = page.getByRole('list', { name: 'Chats matching “lighthouse”' })
  await expect(results.getByRole('listitem').first()).toContainText("Keeper's log 007")
  await expect.poll(() => page.locator('.sidebar-scroll').evaluate((el) => el.scrollTop)).toBe(0)
})
