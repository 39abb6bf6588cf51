import type { Page } from '@playwright/test'
import { expectAccessible, newChat, rpc, sendAndWait, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

/** A summary request of its own, or one asked inside the chat's request (its last message starts so). */
const isSummaryBody = (body: string) =>
  body.includes('conversation summarization assistant') || body.includes('[Distill: summary request')

const MODEL_DRAFT = [
  '## Context',
  'The user and the assistant planned the warehouse migration.',
  '',
  '## Decisions and Outcomes',
  '- The migration runs in two waves.'
].join('\n')

const NOTE = 'The user’s own note: the cut-over code is PELICAN-42, and Dana signs off on Fridays.'

interface Snap {
  id: string
  status: string
  kind: string
}

/** Summaries that replaced messages (a draft replaces nothing until it is accepted). */
async function applied(page: Page, sessionId: string): Promise<Snap[]> {
  const all = await rpc<Snap[]>(page, 'compression.snapshots', { sessionId })
  return all.filter((s) => s.kind === 'summary' && s.status !== 'draft')
}

test('a draft summary is reviewed, edited and accepted, and the user’s text outlives two more cascades', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(180_000)
  await page.goto(distill.url)
  // A small chat window fills in a few turns; a roomy summarization model writes ahead from 50%.
  await rpc(page, 'settings.update', {
    prepareAtPercent: 50,
    summarizationModel: 'wide-32k',
    customModels: [
      { provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 },
      { provider: 'openai', id: 'wide-32k', contextWindow: 32_768, maxOutput: 4096 }
    ]
  })
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai', modelId: 'tiny-4k' })

  // The chat's own setting, in Chat settings.
  await page.getByRole('button', { name: /^Chat settings/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Chat settings' })
  await dialog.getByLabel('Ask me before a summary replaces messages').selectOption('on')
  await expect
    .poll(
      async () =>
        (await rpc<{ reviewSummaries: boolean | null }>(page, 'sessions.get', { id: sessionId })).reviewSummaries
    )
    .toBe(true)
  await snapBoth(page, 'review-chat-settings')
  await dialog.getByRole('button', { name: 'Done' }).click()

  fake.script(Array.from({ length: 3 }, () => ({ for: 'summary' as const, reply: MODEL_DRAFT })))
  const filler = 'We keep talking about the warehouse migration and its schedule in some detail. '
  const draft = page.getByRole('group', { name: 'Draft summary', exact: true })
  let i = 0
  for (; i < 16 && !(await draft.isVisible()); i++) {
    await sendAndWait(page, sessionId, `Turn ${i + 1}. ${filler.repeat(12)}`)
    await page.waitForTimeout(300)
  }
  await expect(draft).toBeVisible()
  // Nothing was replaced: the draft waits with its span, size and what it would free.
  expect(await applied(page, sessionId)).toHaveLength(0)
  await expect(
    draft.getByText(
      /^Covers \d+ messages?( \(\d+ more than the summary in use\))? · [\d,]+ tokens · frees [\d,]+ tokens$/
    )
  ).toBeVisible()
  await expect(draft.getByText('planned the warehouse migration')).toBeVisible()
  await snapBoth(page, 'review-draft')
  await expectAccessible(page)

  // Edited: the user's text replaces the model's, then accepted.
  await draft.getByRole('button', { name: 'Edit' }).click()
  const editor = draft.getByRole('textbox', { name: 'Draft summary text' })
  await editor.fill(NOTE)
  await snapBoth(page, 'review-draft-editing')
  await expectAccessible(page)
  await draft.getByRole('button', { name: 'Save text' }).click()
  await expect(draft.getByText('Your text')).toBeVisible()
  // Discarding a draft the user wrote into asks first; Cancel keeps it, edits and all.
  await draft.getByRole('button', { name: 'Discard' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Discard the draft and your edits?' })
  await expect(confirm).toBeVisible()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  await expect(draft.getByText('Your text')).toBeVisible()
  await draft.getByRole('button', { name: 'Accept' }).click()
  await expect(draft).toBeHidden()
  await expect(page.getByText('Summary accepted')).toBeVisible()
  const active = async () =>
    (
      await rpc<{ summary: { id: string; content: { userNotes?: string } } | null }>(page, 'compression.active', {
        sessionId
      })
    ).summary
  expect((await active())?.content.userNotes).toBe(NOTE)

  // Two more cascades: each time the threshold is reached a new summary goes in over the accepted one.
  const seen = new Set([(await active())!.id])
  for (; i < 60 && seen.size < 3; i++) {
    await sendAndWait(page, sessionId, `Turn ${i + 1}. ${filler.repeat(12)}`)
    await page.waitForTimeout(200)
    seen.add((await active())!.id)
  }
  expect(seen.size).toBe(3)
  await sendAndWait(page, sessionId, 'What was the cut-over code again?')

  // What the model was really sent: the user's text, verbatim, in the summary of the last request.
  const chats = fake.requests.filter((r) => {
    const body = JSON.stringify(r.body)
    return r.path.includes('chat/completions') && !isSummaryBody(body)
  })
  const last = chats.at(-1)!.body as { messages: Array<{ role: string; content: string }> }
  expect(last.messages.at(-1)!.content).toContain('What was the cut-over code again?')
  expect(last.messages[0]!.role).toBe('system')
  expect(last.messages[0]!.content).toContain(NOTE)
  // Never handed to the summarization model to condense.
  expect(
    fake.requests.some((r) => isSummaryBody(JSON.stringify(r.body)) && JSON.stringify(r.body).includes('PELICAN-42'))
  ).toBe(false)

  const region = page.getByRole('region', { name: 'Summary' })
  const toggle = region.getByRole('button', { name: /messages summarized/ })
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
  await expect(region.getByText('PELICAN-42', { exact: false }).first()).toBeVisible()
  await snapBoth(page, 'review-cascaded')
})

test('the global default is off, turned on in Settings, and a chat inherits it', async ({ page, distill }) => {
  await page.goto(distill.url)
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  const toggle = page.getByRole('switch', { name: 'Ask me before a summary replaces messages' })
  await expect(toggle).not.toBeChecked()
  await toggle.check()
  await toggle.scrollIntoViewIfNeeded()
  await snapBoth(page, 'review-settings')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  expect((await rpc<{ reviewSummaries: boolean }>(page, 'settings.get', {})).reviewSummaries).toBe(true)

  await page.reload()
  await newChat(page)
  await page.getByRole('button', { name: /^Chat settings/ }).click()
  await expect(
    page.getByRole('dialog', { name: 'Chat settings' }).getByLabel('Ask me before a summary replaces messages')
  ).toHaveValue('inherit')
  await expect(page.getByRole('option', { name: 'Inherit from Settings (on)' }).last()).toBeAttached()
})
