import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { snapBoth } from './support/conversation'
import { startDistill, type DistillServer } from './support/distill-server'
import { expect, fakeProviderEnv, test } from './support/fixtures'

/**
 * A chat of 1,500 messages opens at its newest page, loads older pages as the reader scrolls up
 * without moving what they are reading, and opens at a search hit far back, from where it scrolls
 * both ways. The chat is imported through `distill import`, the way a person brings a long chat in.
 */

const COUNT = 1500
const HIT = 120
const CODE_WORD = 'Periwinkle'

function text(n: number): string {
  const label = `Message ${String(n).padStart(4, '0')}`
  if (n === HIT) return `${label}: the harbour code word is ${CODE_WORD}, write it down.`
  // Rows of different heights, as a real chat has.
  const lines = 1 + (n % 4)
  return [
    `${label}: notes on step ${n} of the plan.`,
    ...Array.from({ length: lines - 1 }, (_, i) => `Detail ${i + 1} of step ${n}: keep it short and testable.`)
  ].join('\n\n')
}

const ROOT = join(__dirname, '..')
let dir: string
let server: DistillServer

test.beforeEach(async ({ fake }) => {
  test.setTimeout(300_000)
  dir = mkdtempSync(join(tmpdir(), 'distill-paging-'))
  const file = join(dir, 'long-chat.jsonl')
  writeFileSync(
    file,
    Array.from({ length: COUNT }, (_, i) =>
      JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: text(i + 1) })
    ).join('\n')
  )
  const dbFile = join(dir, 'distill.db')
  execFileSync('npx', ['--no-install', 'distill', '--db', dbFile, 'import', file, '--title', 'Long chat'], {
    cwd: ROOT,
    stdio: 'pipe'
  })
  server = await startDistill({ dbFile, env: fakeProviderEnv(fake) })
})

test.afterEach(async () => {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const label = (n: number) => `Message ${String(n).padStart(4, '0')}:`
const row = (log: Locator, n: number) => log.locator('.message-row', { hasText: label(n) })

/** The label of the first message row whose top is inside the list's view, and where it is. */
async function topRow(log: Locator): Promise<{ text: string; y: number }> {
  return log.evaluate((el) => {
    const top = el.getBoundingClientRect().top
    const rows = [...el.querySelectorAll<HTMLElement>('.message-row')]
      .map((r) => ({ r, y: r.getBoundingClientRect().top - top }))
      .filter(({ y }) => y >= 0)
      .sort((a, b) => a.y - b.y)
    const first = rows[0]!
    return { text: /Message \d{4}:/.exec(first.r.textContent ?? '')![0], y: first.y }
  })
}

async function openChat(page: Page): Promise<Locator> {
  await page.goto(server.url)
  await page
    .getByRole('navigation', { name: 'Chats' })
    .getByRole('link', { name: /Long chat/ })
    .click()
  return page.getByRole('log', { name: 'Messages' })
}

test('a 1,500-message chat opens at its newest message and loads older ones above without moving the view', async ({
  page
}) => {
  const log = await openChat(page)
  await expect(row(log, COUNT)).toBeInViewport()
  // Only the newest page is loaded: the first message is nowhere in the page.
  await expect(log.getByText(label(1))).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeHidden()

  // Up to the top of what is loaded: the next page goes above, and the row being read stays put.
  for (let pages = 0; pages < 3; pages++) {
    await log.evaluate((el) => el.scrollTo({ top: 0 }))
    const before = await topRow(log)
    await expect(page.getByRole('status').filter({ hasText: 'Loading earlier messages…' })).toBeHidden()
    await expect.poll(() => log.evaluate((el) => el.scrollTop)).toBeGreaterThan(2000)
    const after = await topRow(log)
    expect(after.text).toBe(before.text)
    expect(Math.abs(after.y - before.y)).toBeLessThan(3)
  }
  // Reading on upwards, older messages appear in order.
  await page.mouse.move(640, 300)
  const reading = await topRow(log)
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -600)
  await expect
    .poll(async () => Number(/\d{4}/.exec((await topRow(log)).text)![0]))
    .toBeLessThan(Number(/\d{4}/.exec(reading.text)![0]))
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible()
  await snapBoth(page, 'paging-scrolled-up')

  // All the way to the first message.
  await expect
    .poll(
      async () => {
        await log.evaluate((el) => el.scrollTo({ top: 0 }))
        return row(log, 1).count()
      },
      { timeout: 60_000, intervals: [300] }
    )
    .toBe(1)
  await log.evaluate((el) => el.scrollTo({ top: 0 }))
  await expect(row(log, 1)).toBeInViewport()
  await expect(row(log, 2)).toBeInViewport()
})

test('a search hit far back opens the chat at that message, which then scrolls down to the newest', async ({
  page
}) => {
  await openChat(page)
  // Start somewhere else.
  await page.getByRole('button', { name: 'New chat' }).first().click()
  await expect(page.getByRole('heading', { name: 'New chat' })).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Model' })).toBeEnabled()
  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  await sidebar.getByRole('searchbox', { name: 'Search chats' }).fill(CODE_WORD.toLowerCase())
  const hit = sidebar
    .getByRole('group', { name: /Matches in Long chat/ })
    .getByRole('link')
    .first()
  await expect(hit.locator('mark')).toHaveText(CODE_WORD)
  await hit.click()

  const log = page.getByRole('log', { name: 'Messages' })
  const found = row(log, HIT)
  await expect(found).toBeInViewport()
  await expect(found).toHaveAttribute('data-jump-flash', '')
  await expect(found).toBeFocused()
  // Its neighbours both ways are there; the newest is not loaded yet.
  await expect(row(log, HIT - 1)).toBeInViewport()
  await expect(row(log, HIT + 1)).toBeInViewport()
  await expect(row(log, COUNT)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible()
  await snapBoth(page, 'paging-search-hit')

  // Scrolling down reads newer pages until the newest message.
  await expect
    .poll(
      async () => {
        await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
        return row(log, COUNT).count()
      },
      { timeout: 60_000, intervals: [300] }
    )
    .toBe(1)
  await log.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  await expect(row(log, COUNT)).toBeInViewport()
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeHidden()
  // And upwards from the hit, older messages come in too.
  await expect
    .poll(
      async () => {
        await log.evaluate((el) => el.scrollTo({ top: 0 }))
        return row(log, 1).count()
      },
      { timeout: 60_000, intervals: [300] }
    )
    .toBe(1)
})

test('"Jump to latest" from a search hit goes to the newest message, and a message sent there appears', async ({
  page,
  fake
}) => {
  await openChat(page)
  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  await sidebar.getByRole('searchbox', { name: 'Search chats' }).fill(CODE_WORD.toLowerCase())
  await sidebar
    .getByRole('list', { name: /Chats matching/ })
    .getByRole('link', { name: /Long chat/ })
    .click()
  const log = page.getByRole('log', { name: 'Messages' })
  await expect(row(log, HIT)).toBeInViewport()

  await page.getByRole('button', { name: 'Jump to latest' }).click()
  await expect(row(log, COUNT)).toBeInViewport()
  await expect(row(log, HIT)).toHaveCount(0)

  fake.script([{ reply: 'Noted, the newest reply.' }])
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('One more question at the end')
  await composer.press('Enter')
  await expect(log.getByText('Noted, the newest reply.')).toBeInViewport()
})

test('Full history opens at the newest page and loads the older ones as it scrolls up', async ({ page }) => {
  await openChat(page)
  await page.getByRole('button', { name: 'View full history' }).click()
  const dialog = page.getByRole('dialog', { name: 'Full history' })
  const list = dialog.getByRole('region', { name: 'All messages' })
  await expect(list.getByRole('article', { name: `Assistant, message ${COUNT}`, exact: true })).toBeInViewport()

  await expect
    .poll(
      async () => {
        await list.evaluate((el) => el.scrollTo({ top: 0 }))
        return list.getByRole('article', { name: 'You, message 1', exact: true }).count()
      },
      { timeout: 60_000, intervals: [300] }
    )
    .toBe(1)

  // A search hit outside what is loaded: the page around it is shown, the hit in view.
  await dialog.getByRole('searchbox', { name: 'Search history' }).fill('step 900 of')
  await dialog
    .getByRole('region', { name: 'Search results' })
    .getByRole('button', { name: /step 900 of/ })
    .first()
    .click()
  const target = list.getByRole('article', { name: 'Assistant, message 900', exact: true })
  await expect(target).toBeInViewport()
  await expect(target).toHaveAttribute('data-flash', 'true')
})
