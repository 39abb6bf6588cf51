import type { Page } from '@playwright/test'
import { longConversation, newChat, openSessionId, rpc, sendInComposer, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

const FERRY = 'We booked the early ferry to Hydra, it leaves Piraeus at 7:40 from gate E8.'
const QUESTION = 'When does the ferry to Hydra leave Piraeus?'

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Chats' })

/** A chat with one exchange, named (the title the user would give it). */
async function chat(
  page: Page,
  fake: { script(steps: Array<{ reply: string }>): void },
  title: string,
  say: string,
  reply: string
) {
  await newChat(page)
  fake.script([{ reply }])
  await sendInComposer(page, say)
  // Read once the chat is open and has sent: the id it remembers is this chat's by then.
  const sessionId = await openSessionId(page)
  await rpc(page, 'sessions.rename', { id: sessionId, title })
  await expect(page.getByRole('heading', { name: title })).toBeVisible()
  return sessionId
}

async function openChat(page: Page, title: string) {
  await sidebar(page).getByRole('link', { name: title }).click()
  await expect(page.getByRole('heading', { name: title })).toBeVisible()
}

async function moveToProject(page: Page, title: string, project: string, shot?: string) {
  await openChat(page, title)
  await page.getByRole('button', { name: 'More actions' }).click()
  await page.getByRole('menuitem', { name: 'Move to project…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Move to project' })
  await dialog.getByRole('radio', { name: project }).check()
  if (shot) await dialog.screenshot({ path: shot })
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
}

/** The recalled block a request carried (the last text part of its pending message), or ''. */
function recalledBlock(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages
  const parts = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ text?: string }>) : []))
  return parts.find((p) => p.text?.startsWith('Recalled'))?.text ?? ''
}

/** What the model was sent for the newest request holding this text. */
function sentWith(fake: { requests: Array<{ body: unknown }> }, text: string): string {
  const bodies = fake.requests.map((r) => JSON.stringify(r.body)).filter((b) => b.includes(text))
  return bodies.at(-1) ?? ''
}

test('Recall across the chats of a project: labelled passages of the other chat, none outside', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(180_000)
  await page.goto(distill.url)
  await chat(page, fake, 'Trip planning', 'Which boat should we take to Hydra?', FERRY)
  const trip = await openSessionIdOf(page, 'Trip planning')
  await longConversation(page, fake, trip, 6)
  await chat(page, fake, 'Packing list', "Let's make the packing list for the island.", 'Sunscreen, a hat and sandals.')
  await chat(page, fake, 'Work notes', 'Remind me about the budget review on Friday.', 'Noted: budget review Friday.')

  // A project, made and filled from the sidebar and the chat menu.
  await sidebar(page).getByRole('button', { name: 'New project' }).click()
  const naming = page.getByRole('dialog', { name: 'New project' })
  await naming.getByRole('textbox', { name: 'Name' }).fill('Greece 2026')
  await naming.getByRole('button', { name: 'Create' }).click()
  await moveToProject(page, 'Trip planning', 'Greece 2026')
  await moveToProject(page, 'Packing list', 'Greece 2026', '/tmp/projects-move-dialog.png')
  const section = sidebar(page).getByRole('region', { name: 'Project Greece 2026' })
  await expect(section.getByRole('link')).toHaveCount(2)
  await expect(sidebar(page).getByRole('list', { name: 'All chats' }).getByRole('link')).toHaveCount(1)

  // Off until the project allows it.
  await openChat(page, 'Packing list')
  fake.script([{ reply: 'Let me check.' }])
  await sendInComposer(page, QUESTION)
  expect(sentWith(fake, QUESTION)).not.toContain('gate E8')

  await section.getByRole('button', { name: 'Actions for project Greece 2026' }).click()
  await page.getByRole('menuitem', { name: 'Allow Recall across its chats' }).click()
  await expect(section.getByRole('button', { name: /Shared recall/ })).toBeVisible()
  await page.screenshot({ path: '/tmp/projects-sidebar.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: '/tmp/projects-sidebar-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })

  // The inspector lists the passage of the other chat, with its title and date, before the send.
  await page.getByRole('textbox', { name: 'Message' }).fill(QUESTION)
  await page.getByRole('meter', { name: 'Context usage' }).click()
  const inspector = page.getByRole('dialog', { name: 'Context inspector' })
  const recalled = inspector.getByRole('region', { name: 'Recalled from other chats of the project' })
  await expect(recalled).toContainText('From the chat “Trip planning”')
  await expect(recalled).toContainText('gate E8')
  await recalled.scrollIntoViewIfNeeded()
  await page.screenshot({ path: '/tmp/projects-inspector.png' })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: '/tmp/projects-inspector-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })
  await inspector.getByRole('button', { name: 'Close' }).click()

  fake.script([{ reply: 'At 7:40 from gate E8.' }])
  await sendInComposer(page, QUESTION)
  const sent = sentWith(fake, 'gate E8')
  expect(sent).toContain('[From the chat \\"Trip planning\\", ')
  expect(sent).toContain(QUESTION)

  // Under the reply, what it recalled from the other chat, named by its title…
  const note = page.getByRole('log', { name: 'Messages' }).locator('.recalled-note').last()
  await expect(note.locator('summary')).toHaveText(/^Recalled \d+ messages? from “Trip planning”$/)
  await note.locator('summary').click()
  await expect(note).toContainText('From the chat “Trip planning”')
  const ferry = note
    .getByRole('list', { name: 'Recalled from “Trip planning”' })
    .getByRole('button', { name: /gate E8/ })
  await expect(ferry).toBeVisible()
  await snapBoth(page, 'projects-recalled-note')
  // …and one opens that chat at the message.
  await ferry.click()
  await expect(page.getByRole('heading', { name: 'Trip planning' })).toBeVisible()
  const opened = page.getByRole('log', { name: 'Messages' }).locator('.message-row[data-jump-flash]')
  await expect(opened).toContainText('gate E8')
  await expect(opened).toBeInViewport()
  await openChat(page, 'Packing list')

  // Left out of the next request, then back for the one after.
  await page.getByRole('textbox', { name: 'Message' }).fill(`${QUESTION} Again please.`)
  await page.getByRole('meter', { name: 'Context usage' }).click()
  await recalled
    .getByRole('listitem')
    .filter({ hasText: 'gate E8' })
    .getByRole('button', { name: /^Leave out/ })
    .click()
  await expect(recalled.getByText('Left out of the next request:')).toBeVisible()
  await inspector.getByRole('button', { name: 'Close' }).click()
  fake.script([{ reply: 'Noted.' }])
  const before = fake.requests.length
  await sendInComposer(page, `${QUESTION} Again please.`)
  const again = fake.requests.slice(before).find((r) => JSON.stringify(r.body).includes('Again please'))!
  // The chat's own reply still says it; the passage of the other chat is not recalled.
  expect(recalledBlock(again.body)).toContain('From the chat "Trip planning"')
  expect(recalledBlock(again.body)).not.toContain('gate E8')

  // A chat outside the project never gets it.
  await openChat(page, 'Work notes')
  fake.script([{ reply: 'No idea.' }])
  const outsideFrom = fake.requests.length
  await sendInComposer(page, QUESTION)
  const outside = fake.requests
    .slice(outsideFrom)
    .map((r) => JSON.stringify(r.body))
    .join('\n')
  expect(outside).toContain(QUESTION)
  expect(outside).not.toContain('gate E8')
  expect(outside).not.toContain('From the chat')
})

async function openSessionIdOf(page: Page, title: string): Promise<string> {
  const { sessions } = await rpc<{ sessions: Array<{ id: string; title: string }> }>(page, 'sessions.list', {})
  return sessions.find((s) => s.title === title)!.id
}
