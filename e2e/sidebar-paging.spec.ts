import type { Page } from '@playwright/test'
import { snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'
import { chatGptConversation, serveImportedEach } from './support/imported-chats'

/**
 * A few hundred chats, imported the way a person brings their history in: the sidebar shows the
 * first page, keeps only the rows near the view in the page while more pages load as it scrolls,
 * opens a chat from a later page, keeps what it read when a chat changes, and a search reaches a
 * chat no page has brought in yet.
 */

const CHATS = 400

const title = (n: number) => `Ship's log ${String(n).padStart(3, '0')}`

/** Chat n (1 = oldest, listed last); chat 2 alone mentions the albatross. */
function conversation(n: number) {
  const texts = [
    `Entry ${n}: what did the crew see on day ${n}?`,
    n === 2
      ? `On day ${n} an albatross followed the ship until dusk.`
      : `On day ${n} the crew logged the wind, the swell and the stars.`
  ]
  return chatGptConversation(title(n), texts, 1_700_000_000 + n * 100)
}

const served = serveImportedEach(() => Array.from({ length: CHATS }, (_, i) => conversation(i + 1)))

/** The `sessions.list` requests the page sends, as their inputs. */
function listRequests(page: Page): Array<{ cursor?: string; limit?: number }> {
  const seen: Array<{ cursor?: string; limit?: number }> = []
  page.on('request', (request) => {
    if (request.url().endsWith('/rpc/sessions.list')) seen.push(request.postDataJSON() ?? {})
  })
  return seen
}

/** Scrolls the sidebar down a screen at a time until the chat's row is in view. */
async function scrollTo(page: Page, name: string): Promise<void> {
  const row = page.getByRole('list', { name: 'All chats' }).getByRole('link', { name: new RegExp(name) })
  await expect(async () => {
    if ((await row.count()) > 0) await row.scrollIntoViewIfNeeded()
    else await page.locator('.sidebar-scroll').evaluate((el) => el.scrollBy(0, el.clientHeight))
    await expect(row).toBeInViewport({ timeout: 100 })
  }).toPass({ timeout: 60_000, intervals: [50] })
}

test('the sidebar pages through the chats, keeps few rows in the page and opens one from a later page', async ({
  page
}) => {
  const requests = listRequests(page)
  await page.goto(served().url)
  const list = page.getByRole('list', { name: 'All chats' })
  await expect(list.getByRole('link', { name: new RegExp(title(CHATS)) })).toBeVisible()
  // The first screen comes from a small page.
  expect(requests.every((r) => r.cursor === undefined && r.limit === 100)).toBe(true)
  const firstScreen = requests.length

  // Chat 20 is on the fourth page: scrolling brings the pages in, one after another.
  await scrollTo(page, title(20))
  expect(requests.length).toBeGreaterThanOrEqual(firstScreen + 3)
  expect(requests.slice(firstScreen).every((r) => typeof r.cursor === 'string' && r.limit === 100)).toBe(true)
  // Hundreds of chats read, a few dozen rows in the page; each says where it is in the list.
  const rows = await list.getByRole('listitem').count()
  expect(rows).toBeLessThan(80)
  await expect(list.getByRole('listitem').filter({ hasText: title(20) })).toHaveAttribute(
    'aria-posinset',
    String(CHATS - 20 + 1)
  )

  await list.getByRole('link', { name: new RegExp(title(20)) }).click()
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('On day 20 the crew logged the wind')
  await expect(list.getByRole('link', { name: new RegExp(title(20)) })).toHaveAttribute('aria-current', 'page')
  await snapBoth(page, 'sidebar-paging-later-page')
})

test('a change to a chat updates the list without reading the pages again; a search reaches a chat not yet listed', async ({
  page
}) => {
  const requests = listRequests(page)
  await page.goto(served().url)
  await scrollTo(page, title(150))
  const pagesRead = requests.length

  // Renaming a chat far down: the list reads its first page again, not every page shown.
  const row = page
    .getByRole('list', { name: 'All chats' })
    .getByRole('listitem')
    .filter({ hasText: title(150) })
  await row.hover()
  await row.getByRole('button', { name: 'Rename' }).click()
  await page.getByRole('textbox', { name: 'Chat title' }).fill('Renamed from far down')
  await page.keyboard.press('Enter')
  const list = page.getByRole('list', { name: 'All chats' })
  await page.locator('.sidebar-scroll').evaluate((el) => el.scrollTo(0, 0))
  // A rename is activity: the chat now heads the list.
  await expect(list.getByRole('listitem').first()).toContainText('Renamed from far down')
  const after = requests.slice(pagesRead)
  expect(after.length).toBeGreaterThan(0)
  expect(after.every((r) => r.cursor === undefined && r.limit === 100)).toBe(true)
  // The chats read before are still listed, without another page asked for.
  const before = requests.length
  await scrollTo(page, title(149))
  expect(requests.length).toBe(before)

  // Chat 2 is on the last page, never read: a search finds it and opens it at the message.
  await page.getByRole('searchbox').fill('albatross')
  const results = page.getByRole('list', { name: 'Chats matching “albatross”' })
  await expect(results).toContainText(title(2))
  await results.getByText(/albatross followed the ship/).click()
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('an albatross followed the ship')
  await expect(page.getByRole('heading', { level: 1, name: title(2) })).toBeVisible()
})
