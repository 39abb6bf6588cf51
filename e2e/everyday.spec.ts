import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { longConversation, newChat, rpc, sendAndWait, sendInComposer, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

/** Screenshots of the current screen at both sizes, light and dark. */
async function snapSizes(page: Page, name: string): Promise<void> {
  for (const [w, h] of [
    [1440, 900],
    [1024, 700]
  ] as const) {
    await page.setViewportSize({ width: w, height: h })
    await snapBoth(page, `${name}-${w}`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

async function download(page: Page, item: string): Promise<{ name: string; text: string }> {
  await page.getByRole('button', { name: 'More actions' }).click()
  const menu = page.getByRole('menu', { name: 'More actions' })
  await expect(menu).toBeVisible()
  const [file] = await Promise.all([page.waitForEvent('download'), menu.getByRole('menuitem', { name: item }).click()])
  await expect(menu).toBeHidden()
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') }
}

test('a chat downloads as Markdown and as JSON from its menu', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.rename', { id: sessionId, title: 'Harbour trip' })
  fake.script([{ reply: 'The **first ferry** leaves at 07:10 from pier 3.' }])
  await sendAndWait(page, sessionId, 'When does the first ferry leave?')

  await page.getByRole('button', { name: 'More actions' }).click()
  await expect(page.getByRole('menuitem', { name: 'Export as Markdown' })).toBeFocused()
  await snapSizes(page, 'everyday-chat-menu')
  // Escape closes the menu and gives focus back to its button.
  await page.keyboard.press('Escape')
  await expect(page.getByRole('menu')).toBeHidden()
  await expect(page.getByRole('button', { name: 'More actions' })).toBeFocused()

  const md = await download(page, 'Export as Markdown')
  expect(md.name).toBe('harbour-trip.md')
  expect(md.text).toMatch(/^# Harbour trip\n/)
  expect(md.text).toContain('When does the first ferry leave?')
  expect(md.text).toContain('The **first ferry** leaves at 07:10 from pier 3.')

  const json = await download(page, 'Export as JSON')
  expect(json.name).toBe('harbour-trip.distill.json')
  const data = JSON.parse(json.text)
  expect(data).toMatchObject({ format: 'distill-chat', version: 1, session: { title: 'Harbour trip' } })
  expect(data.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
    ['user', 'When does the first ferry leave?'],
    ['assistant', 'The **first ferry** leaves at 07:10 from pier 3.']
  ])
  await expect(page.getByText('Exported harbour-trip.distill.json')).toBeVisible()
})

test('searching chats finds a word in a message body and opens the chat at that message', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  const other = await newChat(page)
  await rpc(page, 'sessions.rename', { id: other, title: 'Weekend plans' })
  await sendAndWait(page, other, 'Any ideas for Saturday?')

  const target = await newChat(page)
  await rpc(page, 'sessions.rename', { id: target, title: 'Travel notes' })
  // The word is deep in a long chat, far above what the chat shows when opened.
  await longConversation(page, fake, target, 16, (i) =>
    i === 2
      ? 'Remember that the night train to Zanzibarville leaves from platform 9.'
      : `Question ${i + 1}: what about day ${i + 1}?`
  )
  await page.getByRole('button', { name: 'New chat' }).first().click()

  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  await sidebar.getByRole('searchbox', { name: 'Search chats' }).fill('zanzibarv')
  const results = sidebar.getByRole('list', { name: 'Chats matching “zanzibarv”' })
  await expect(results.getByRole('listitem')).toHaveCount(1)
  const hit = results.getByRole('link', { name: 'Travel notes' })
  await expect(hit).toBeVisible()
  await expect(hit).toContainText('1 match')
  const passage = sidebar.getByRole('group', { name: 'Matches in Travel notes' }).getByRole('link')
  await expect(passage.locator('mark')).toHaveText('Zanzibarville')
  await snapSizes(page, 'everyday-search-results')

  await passage.click()
  const messages = page.getByRole('log', { name: 'Messages' })
  const found = messages.locator('.message-row', { hasText: 'night train to Zanzibarville' })
  await expect(found).toBeInViewport()
  await expect(found).toHaveAttribute('data-jump-flash', '')
  await expect(found).toBeFocused()
  await snapBoth(page, 'everyday-search-opened')
  // A search for nothing that exists says so.
  await sidebar.getByRole('searchbox', { name: 'Search chats' }).fill('quokka')
  await expect(sidebar.getByRole('status')).toHaveText('No chats match “quokka”.')
})

test('a new chat is named after its first reply, and its preview reads as plain text', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  await newChat(page)
  fake.script([
    { reply: '## Context\n\nThe **first ferry** leaves at `07:10` from pier 3.' },
    { for: 'title', reply: 'Ferry Departure Times' }
  ])
  await sendInComposer(page, 'when does the first ferry leave tomorrow morning?')

  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  const item = sidebar.getByRole('link', { name: 'Ferry Departure Times' })
  await expect(item).toBeVisible()
  await expect(page).toHaveTitle('Ferry Departure Times – Distill')
  await expect(item).toContainText('Context The first ferry leaves at 07:10 from pier 3.')
  await expect(item).not.toContainText('##')
  expect(fake.titleRequests).toHaveLength(1)
  await snapSizes(page, 'everyday-title-preview')
})

test('the keyboard: new chat, stop with Esc, recall the last message, search, and the shortcuts list', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  await expect(page.getByRole('navigation', { name: 'Chats' })).toBeVisible()
  const composer = page.getByRole('textbox', { name: 'Message' })

  await page.keyboard.press('Control+Shift+O')
  await expect(composer).toBeFocused()
  fake.script([{ reply: 'Counting slowly: one two three four five six seven eight nine ten.', delayMs: 150 }])
  await composer.fill('Count to ten, slowly')
  await composer.press('Enter')
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible()
  await expect(page.getByRole('log', { name: 'Messages' }).getByText(/stopped/i)).toBeVisible()

  // ↑ in the empty message box brings the last message back, to change and send again.
  await composer.focus()
  await page.keyboard.press('ArrowUp')
  await expect(composer).toHaveValue('Count to ten, slowly')
  // In a box with text, ↑ moves the caret as usual.
  await page.keyboard.press('ArrowUp')
  await expect(composer).toHaveValue('Count to ten, slowly')

  await page.keyboard.press('Control+K')
  await expect(page.getByRole('searchbox', { name: 'Search chats' })).toBeFocused()

  await page.getByRole('log', { name: 'Messages' }).focus()
  await page.keyboard.press('Shift+?')
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(help).toBeVisible()
  await expect(help.getByRole('row', { name: /Search chats/ })).toContainText('Ctrl')
  await snapSizes(page, 'everyday-shortcuts')
  await page.keyboard.press('Escape')
  await expect(help).toBeHidden()

  // Also from the chat's menu, and with Ctrl+/ while typing.
  await page.getByRole('button', { name: 'More actions' }).click()
  await page.getByRole('menuitem', { name: 'Keyboard shortcuts' }).click()
  await expect(help).toBeVisible()
  await page.keyboard.press('Escape')
  await composer.focus()
  await page.keyboard.press('Control+/')
  await expect(help).toBeVisible()
})
