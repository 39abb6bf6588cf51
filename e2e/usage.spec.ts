import type { Locator } from '@playwright/test'
import { addSmallModel, expectAccessible, openNewChat, pickModel, snapBoth } from './support/conversation'
import { expect, snap, test } from './support/fixtures'

async function valueOf(meter: Locator): Promise<number> {
  return Number(await meter.getAttribute('aria-valuenow'))
}

// gpt-4o-mini, the default: a 128,000 window less 16,384 reserved for the reply and a 5% margin.
const GPT_4O_MINI_USABLE = 128_000 - 16_384 - 6_400

test('the meter shows the usable budget of the model and grows while typing', async ({ page, distill }) => {
  await page.goto(distill.url)
  await openNewChat(page)
  const meter = page.getByRole('meter', { name: 'Context usage' })
  await expect(meter).toHaveAttribute('aria-valuemin', '0')
  await expect(meter).toHaveAttribute('aria-valuemax', String(GPT_4O_MINI_USABLE))
  await expect(meter).toHaveAttribute('data-level', 'normal')
  await expect(meter).toContainText('/ 105.2k')
  const empty = await valueOf(meter)
  expect(empty).toBeLessThan(20)
  await expect(meter).toHaveAttribute('aria-valuetext', `${empty} of 105.2k tokens`)

  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('The quick brown fox jumps over the lazy dog. '.repeat(200))
  await expect.poll(() => valueOf(meter)).toBeGreaterThan(empty + 1500)
  await expect(meter).toHaveAttribute('aria-valuetext', /^\d+(\.\d)?k of 105\.2k tokens$/)
  const typed = await valueOf(meter)
  await composer.pressSequentially(' and then some more words')
  await expect.poll(() => valueOf(meter)).toBeGreaterThan(typed)

  // Hover or focus shows the breakdown.
  await meter.hover()
  const popover = page.getByRole('tooltip')
  await expect(popover).toBeVisible()
  await expect(popover).toContainText('GPT-4o mini')
  await expect(popover).toContainText('Reserved for the reply')
  await expect(popover).toContainText('16,384')
  await expect(popover).toContainText('Safety margin')
  await expect(popover).toContainText('Compression threshold (95%)')
  await snapBoth(page, 'meter-popover')
  await expectAccessible(page)
  await page.mouse.move(10, 700)
  await expect(popover).toBeHidden()
  await meter.focus()
  await expect(popover).toBeVisible()
  await meter.press('Escape')
  await expect(popover).toBeHidden()
  await expect(meter).toHaveAccessibleDescription(/Reserved for the reply/)

  // Clearing the draft brings it back down.
  await composer.fill('')
  await expect.poll(() => valueOf(meter)).toBe(empty)
})

test('the meter updates after a reply', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  await openNewChat(page)
  const meter = page.getByRole('meter', { name: 'Context usage' })
  await expect(meter).toHaveAttribute('aria-valuemax', String(GPT_4O_MINI_USABLE))
  const empty = await valueOf(meter)

  fake.script([{ reply: 'A reply long enough to be counted: '.concat('lorem ipsum dolor sit amet '.repeat(40)) }])
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('Tell me a long story')
  await composer.press('Enter')
  await expect(page.getByRole('log', { name: 'Messages' }).getByText(/A reply long enough to be counted/)).toBeVisible()
  // Both messages are in the next request now.
  await expect.poll(() => valueOf(meter)).toBeGreaterThan(empty + 200)
  await expect(meter).toHaveAttribute('data-level', 'normal')
  await snapBoth(page, 'chat-header-meter')
})

test('a small custom model turns the meter orange, then red', async ({ page, distill }) => {
  await page.goto(distill.url)
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Add model' }).click()
  const row = page.getByRole('group', { name: 'Custom model 1' })
  await expect(row.getByRole('textbox', { name: 'Model ID' })).toBeFocused()
  await expect(row.getByRole('combobox', { name: 'Provider' })).toHaveValue('openai-compatible')
  await row.getByRole('textbox', { name: 'Model ID' }).fill('tiny-local')
  await row.getByRole('textbox', { name: 'Context window' }).fill('100')
  await row.getByRole('textbox', { name: 'Max output' }).fill('256')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  // Mistakes are pointed out next to their field, and nothing is saved.
  await expect(row.getByText('Cannot exceed the context window')).toBeVisible()
  await row.getByRole('textbox', { name: 'Context window' }).fill('300')
  await row.getByRole('textbox', { name: 'Max output' }).fill('16')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  // This one only the server knows.
  await expect(row.getByText('At least 512 tokens')).toBeVisible()
  await expect(row.getByRole('textbox', { name: 'Context window' })).toHaveAttribute('aria-invalid', 'true')
  await snap(page, 'settings-custom-model-invalid')
  await row.getByRole('textbox', { name: 'Context window' }).fill('2048')
  await row.getByRole('textbox', { name: 'Max output' }).fill('256')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Unsaved changes' })).toBeHidden()
  await snapBoth(page, 'settings-custom-models')
  await expectAccessible(page)

  await page.getByRole('button', { name: 'Back to chat' }).click()
  await openNewChat(page)
  await pickModel(page, 'tiny-local', /^tiny-local · 2k/)
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveText('tiny-local · 2k')
  const meter = page.getByRole('meter', { name: 'Context usage' })
  // 2,048 less 256 for the reply and a 5% margin (103).
  await expect(meter).toHaveAttribute('aria-valuemax', '1689')
  await expect(meter).toContainText('≈') // no local tokenizer for a custom model: an estimate

  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('word '.repeat(1300))
  await expect(meter).toHaveAttribute('data-level', 'warn')
  await snap(page, 'meter-warn')
  await composer.fill('word '.repeat(1600))
  await expect(meter).toHaveAttribute('data-level', 'danger')
  await expect(meter).toHaveAttribute('aria-valuetext', /tokens \(estimated\)$/)
  await meter.hover()
  await expect(page.getByRole('tooltip')).toContainText('Counts are estimates')
  await expect(page.getByRole('tooltip')).toContainText('tokens over the usable budget')
  await snapBoth(page, 'meter-danger')
  await expectAccessible(page)
})

test('a message larger than the window is announced, sent cut in the middle within budget, and kept whole', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  await addSmallModel(page, 'tiny-4k', 4096, 512)
  await openNewChat(page)
  await pickModel(page, 'tiny-4k', /^tiny-4k · /)
  const composer = page.getByRole('textbox', { name: 'Message' })
  // Words the tokenizer cannot merge: about one token each, twice what the window holds.
  const words = Array.from({ length: 7000 }, (_, i) => `w${i.toString(36)}`).join(' ')
  await composer.fill(`BEGIN ${words} FINISH`)
  const warning = page.getByRole('status').filter({ hasText: 'Too long for this model’s window' })
  await expect(warning).toBeVisible()
  await expect(warning).toContainText(/about [\d,]+ tokens from the middle/)
  await snapBoth(page, 'draft-cut-warning')

  fake.script([{ reply: 'Read what fitted.' }])
  await composer.press('Enter')
  const log = page.getByRole('log', { name: 'Messages' })
  await expect(log.getByText('Read what fitted.')).toBeVisible()
  await expect(warning).toBeHidden()
  const note = log.getByRole('note').filter({ hasText: 'Sent shortened' })
  await expect(note).toBeVisible()
  await expect(note).toContainText(/about [\d,]+ tokens were cut from the middle/)
  // What the chat shows is the whole message; what went out fitted the window less the reply's share.
  await expect(log.getByText('FINISH', { exact: false })).toBeVisible()
  const sent = fake.requests.filter((r) => r.inputTokens !== undefined && JSON.stringify(r.body).includes('BEGIN'))
  expect(sent.length).toBeGreaterThan(0)
  for (const request of sent) expect(request.inputTokens!).toBeLessThanOrEqual(4096 - 512)
  expect(JSON.stringify(sent[0]!.body)).toMatch(/\[\.\.\.[\d,]+\.\.\.\]/)
  await snapBoth(page, 'sent-cut-note')
  await expectAccessible(page)
})
