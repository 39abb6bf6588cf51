import { snapBoth } from './support/conversation'
import type { DistillServer } from './support/distill-server'
import { expect, snap, test } from './support/fixtures'
import { chatGptConversation, serveImported } from './support/imported-chats'

/**
 * Search across 50 chats, imported from one ChatGPT export: the sidebar shows each chat found with
 * its best passages, the matched word marked, and a passage opens its chat at that message.
 */

const CHATS = 50
/** The long chat's length, and the message far back that holds the only "pistachio". */
const LONG = 80
const DEEP = 12
let server: DistillServer

/** How many of chat n's replies mention marzipan (1–5): chat n holds that many matches. */
const hitsIn = (n: number) => 1 + (n % 5)

/** Chat n is n days after the first. */
const conversation = (title: string, texts: string[], n: number) =>
  chatGptConversation(title, texts, 1_700_000_000 + n * 86_400)

/** Chat n (1 = oldest): a question, then replies of which hitsIn(n) mention marzipan. */
function bakingChat(n: number) {
  const texts = [`Baking question ${n}: what should go on the cake for day ${n}?`]
  for (let i = 0; i < 5; i++)
    texts.push(
      i < hitsIn(n)
        ? `Reply ${i + 1} for day ${n}: roll the marzipan thin, then drape it over the cake and smooth the sides.`
        : `Reply ${i + 1} for day ${n}: let the sponge cool completely before you start.`,
      `Thanks, noted for day ${n}.`
    )
  return conversation(`Cake diary ${String(n).padStart(2, '0')}`, texts, n)
}

function longChat() {
  const texts = Array.from({ length: LONG }, (_, i) =>
    i === DEEP
      ? 'Use <b>pistachio</b> paste for the green layer, not food colouring.'
      : `Step ${i + 1} of the wedding cake: keep going, the layers need time.`
  )
  return conversation('Wedding cake', texts, CHATS + 1)
}

test.beforeEach(async ({ fake }) => {
  test.setTimeout(180_000)
  server = await serveImported(
    [
      ...Array.from({ length: CHATS - 2 }, (_, i) => bakingChat(i + 1)),
      // Found by its title only.
      conversation('Marzipan suppliers', ['Which shop sells almond paste?', 'The one by the station.'], CHATS - 1),
      longChat()
    ],
    fake
  )
})

test.afterEach(async () => {
  await server?.stop()
})

test('a search across 50 chats shows the passages of each chat found, grouped by chat, the word marked', async ({
  page
}) => {
  await page.goto(server.url)
  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  await expect(sidebar.getByRole('list', { name: 'All chats' }).getByRole('listitem').first()).toBeVisible()
  await sidebar.getByRole('searchbox', { name: 'Search chats' }).fill('marzipan')

  // Every matching reply, in every chat that has one, and the one matching title apart.
  let matches = 0
  for (let n = 1; n <= CHATS - 2; n++) matches += hitsIn(n)
  await expect(sidebar.getByRole('status')).toHaveText(`${matches} matches and 1 title in ${CHATS - 1} chats`)
  const results = sidebar.getByRole('list', { name: 'Chats matching “marzipan”' })
  await expect(results.getByRole('listitem')).toHaveCount(CHATS - 1)
  // The chats' own counts add up to the matches said above them.
  const counts = await results.locator('.search-group-count').allTextContents()
  expect(counts.reduce((sum, text) => sum + (Number(/^(\d+) match/.exec(text)?.[1]) || 0), 0)).toBe(matches)

  // The title match first, with no passage; then chats with their best three passages at most.
  const first = results.getByRole('listitem').first()
  await expect(first.getByRole('link').first()).toHaveAccessibleName('Marzipan suppliers')
  await expect(first).toContainText('Title matches')
  await expect(first.locator('mark')).toHaveText('Marzipan')
  await expect(first.getByRole('group')).toHaveCount(0)

  const four = sidebar.getByRole('group', { name: 'Matches in Cake diary 04' })
  await expect(results.getByRole('listitem').filter({ hasText: 'Cake diary 04' })).toContainText('5 matches')
  await expect(four.getByRole('link')).toHaveCount(3)
  // Three of its five passages shown: the other two are said, not left to guess.
  await expect(four).toContainText('2 more in this chat')
  const one = sidebar.getByRole('group', { name: 'Matches in Cake diary 05' })
  await expect(one.getByRole('link')).toHaveCount(1)
  await expect(one).not.toContainText('more in this chat')
  const passage = one.getByRole('link')
  await expect(passage.locator('mark')).toHaveText('marzipan')
  await expect(passage).toContainText('roll the marzipan thin')
  await expect(passage).toContainText('Assistant ·')
  await page.setViewportSize({ width: 1280, height: 900 })
  await snapBoth(page, 'search-snippets-results')

  // Keyboard: ↓ from the search box walks titles and passages, Enter opens the chat at the passage.
  await sidebar.getByRole('searchbox', { name: 'Search chats' }).focus()
  await page.keyboard.press('ArrowDown')
  await expect(first.getByRole('link').first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  const second = results.getByRole('listitem').nth(1)
  await expect(second.getByRole('link').first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  const focusedPassage = second.getByRole('group').getByRole('link').first()
  await expect(focusedPassage).toBeFocused()
  await snap(page, 'search-snippets-keyboard')
  const text = (await focusedPassage.locator('.search-passage-text').textContent())!.replace(/^…|…$/g, '').trim()
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('ArrowUp')
  await expect(sidebar.getByRole('searchbox', { name: 'Search chats' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  const log = page.getByRole('log', { name: 'Messages' })
  // The message highlighted is the passage's own.
  const opened = log.locator('.message-row[data-jump-flash]')
  await expect(opened).toBeInViewport()
  await expect(opened).toContainText(text)
  await expect(opened).toBeFocused()
})

test('a passage far back in a long chat opens the chat at that message; markup in it stays text', async ({ page }) => {
  await page.goto(server.url)
  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  await sidebar.getByRole('searchbox', { name: 'Search chats' }).fill('pistachio')
  await expect(sidebar.getByRole('status')).toHaveText('1 match in 1 chat')
  const passage = sidebar.getByRole('group', { name: 'Matches in Wedding cake' }).getByRole('link')
  await expect(passage.locator('mark')).toHaveText('pistachio')
  // The message's own tags are shown as typed, never rendered.
  await expect(passage).toContainText('Use <b>pistachio</b> paste')
  await expect(passage.locator('b')).toHaveCount(0)
  await expect(passage).toContainText('You ·')

  await passage.click()
  const log = page.getByRole('log', { name: 'Messages' })
  const found = log.locator('.message-row', { hasText: 'paste for the green layer' })
  await expect(found).toBeInViewport()
  await expect(found).toHaveAttribute('data-jump-flash', '')
  await expect(found).toBeFocused()
  await expect(log.locator('.message-row', { hasText: `Step ${LONG} of the wedding cake` })).not.toBeInViewport()
  await snapBoth(page, 'search-snippets-opened')
})
