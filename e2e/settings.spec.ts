import type { Page } from '@playwright/test'
import { expectAccessible, newChat, pickModel, rpc, snapBoth } from './support/conversation'
import { expect, snap, test } from './support/fixtures'

type Context = {
  budget: { threshold: number; thresholdPercent: number }
  thresholdSetting: { percent: number; source: string }
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Providers' })).toBeVisible()
}

const saveBar = (page: Page) => page.getByRole('region', { name: 'Unsaved changes' })

test('edits all over the page are saved by one Save and survive a reload', async ({ page, distill }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  const before = await rpc<Context>(page, 'chat.context', { sessionId })
  expect(before.budget.thresholdPercent).toBe(95)

  await openSettings(page)
  await expect(saveBar(page)).toBeHidden() // nothing edited, nothing to save
  // A provider's address, the default model, a custom model, a model's threshold and two preferences.
  await page.getByLabel('Local / OpenAI-compatible base URL', { exact: true }).fill('http://127.0.0.1:11434/v1')
  await pickModel(page, 'gpt-4o', /^GPT-4o · 128k/, 'Default model for new chats')
  await page.getByRole('button', { name: 'Add model' }).click()
  const row = page.getByRole('group', { name: 'Custom model 1' })
  await row.getByRole('textbox', { name: 'Model ID' }).fill('qwen3:8b')
  await row.getByRole('textbox', { name: 'Context window' }).fill('32768')
  await row.getByRole('textbox', { name: 'Max output' }).fill('4096')
  const thresholds = page.getByRole('group', { name: 'Threshold per model' })
  await pickModel(page, 'gpt-4o mini', /^GPT-4o mini · 128k/, 'Model for its own threshold')
  await thresholds.getByRole('textbox', { name: 'Its threshold (%)' }).fill('70') // typed, not "Set": saved all the same
  await page.getByRole('spinbutton', { name: 'Threshold', exact: true }).fill('80')
  await page.getByRole('spinbutton', { name: 'Recent tokens kept verbatim' }).fill('500')
  const prepareAt = page.getByRole('spinbutton', { name: 'Prepare the next summary at' })
  await expect(prepareAt).toHaveValue('80')
  await prepareAt.fill('70')
  await prepareAt.scrollIntoViewIfNeeded()
  await snapBoth(page, 'settings-prepare-ahead')

  await expect(saveBar(page).getByRole('status')).toHaveText(
    'Unsaved changes: Local / OpenAI-compatible, Default model, Custom models, Thresholds per model, Compression'
  )
  await snapBoth(page, 'settings-save-bar')
  await expectAccessible(page)
  await saveBar(page).getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(saveBar(page)).toBeHidden()
  await expect(thresholds.getByRole('listitem').filter({ hasText: 'GPT-4o mini' })).toContainText('70%')

  await page.reload()
  await openSettings(page)
  await expect(page.getByLabel('Local / OpenAI-compatible base URL', { exact: true })).toHaveValue(
    'http://127.0.0.1:11434/v1'
  )
  await expect(page.getByRole('combobox', { name: 'Default model for new chats' })).toHaveAttribute(
    'data-value',
    'openai:gpt-4o'
  )
  await expect(
    page.getByRole('group', { name: 'Custom model 1' }).getByRole('textbox', { name: 'Model ID' })
  ).toHaveValue('qwen3:8b')
  await expect(thresholds.getByRole('listitem').filter({ hasText: 'GPT-4o mini' })).toContainText('70%')
  await expect(page.getByRole('spinbutton', { name: 'Threshold', exact: true })).toHaveValue('80')
  await expect(page.getByRole('spinbutton', { name: 'Recent tokens kept verbatim' })).toHaveValue('500')
  await expect(page.getByRole('spinbutton', { name: 'Prepare the next summary at' })).toHaveValue('70')
  await expect(saveBar(page)).toBeHidden()

  // The chat (GPT-4o mini) now compresses at its model's 70%.
  const after = await rpc<Context>(page, 'chat.context', { sessionId })
  expect(after.thresholdSetting).toEqual({ percent: 70, source: 'model' })
  expect(after.budget.threshold).toBeLessThan(before.budget.threshold)
})

test('a refused save keeps every edit and says what to fix; Discard goes back to what is saved', async ({
  page,
  distill
}) => {
  await page.goto(distill.url)
  await openSettings(page)
  const threshold = page.getByRole('spinbutton', { name: 'Threshold', exact: true })
  const retention = page.getByRole('spinbutton', { name: 'Recent tokens kept verbatim' })
  const address = page.getByLabel('OpenAI base URL', { exact: true })
  await threshold.fill('120') // only the server knows the range
  await retention.fill('750')
  await address.fill('http://127.0.0.1:9/v1')
  await saveBar(page).getByRole('button', { name: 'Save changes' }).click()

  await expect(threshold).toHaveAttribute('aria-invalid', 'true')
  await expect(threshold).toHaveAccessibleDescription(/At most 99%/)
  await expect(threshold).toBeFocused()
  await expect(saveBar(page).getByRole('alert')).toHaveText('Nothing was saved: fix the highlighted fields.')
  await page.setViewportSize({ width: 1024, height: 700 })
  // Nothing was written, and nothing typed was lost.
  const saved = await rpc<{ thresholdPercent: number; retentionTokens: number }>(page, 'settings.get', {})
  expect([saved.thresholdPercent, saved.retentionTokens]).toEqual([95, 1000])
  await expect(retention).toHaveValue('750')
  await expect(address).toHaveValue('http://127.0.0.1:9/v1')
  await snapBoth(page, 'settings-save-refused')
  await expectAccessible(page)
  await page.setViewportSize({ width: 1280, height: 800 })

  // Once the highlighted field is fixed, the sentence about it goes (the change still waits to be saved).
  await threshold.fill('85')
  await expect(threshold).not.toHaveAttribute('aria-invalid', 'true')
  await expect(saveBar(page).getByRole('alert')).toHaveCount(0)

  // A bad address is caught too, next to its field, after the rest was saved.
  await page.getByLabel('Local / OpenAI-compatible base URL', { exact: true }).fill('localhost 11434')
  await threshold.press('Enter') // Enter in any field saves, like the button
  const local = page.getByLabel('Local / OpenAI-compatible base URL', { exact: true })
  await expect(local).toHaveAttribute('aria-invalid', 'true')
  await expect(local).toHaveAccessibleDescription(/Enter a full URL such as http:\/\/127\.0\.0\.1:11434\/v1/)
  await expect(saveBar(page).getByRole('alert')).toHaveText(
    'Not saved: Local / OpenAI-compatible. Everything else was saved.'
  )
  await expect(saveBar(page).getByRole('status')).toHaveText('Unsaved changes: Local / OpenAI-compatible')
  await expect(local).toHaveValue('localhost 11434')
  const partly = await rpc<{ thresholdPercent: number; retentionTokens: number }>(page, 'settings.get', {})
  expect([partly.thresholdPercent, partly.retentionTokens]).toEqual([85, 750])
  await expect(address).toHaveValue('http://127.0.0.1:9/v1')

  // Leaving asks first, in the app's own dialog; staying keeps the edits.
  await page.getByRole('button', { name: 'Back to chat' }).click()
  const leave = page.getByRole('alertdialog', { name: 'Leave Settings without saving?' })
  await expect(leave).toContainText('Your changes to Local / OpenAI-compatible have not been saved')
  await expect(leave.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await snapBoth(page, 'settings-leave-unsaved')
  await page.keyboard.press('Escape')
  await expect(leave).toBeHidden()
  await expect(local).toHaveValue('localhost 11434')
  // Asked again, "Leave without saving" goes back to the chat.
  await page.getByRole('button', { name: 'Back to chat' }).click()
  await leave.getByRole('button', { name: 'Leave without saving' }).click()
  await expect(page.getByRole('heading', { name: 'Providers' })).toBeHidden()
  await openSettings(page)
  await expect(local).toHaveValue('')
  await local.fill('localhost 11434')

  await saveBar(page).getByRole('button', { name: 'Discard' }).click()
  await expect(local).toHaveValue('')
  await expect(local).not.toHaveAttribute('aria-invalid', 'true')
  await expect(saveBar(page)).toBeHidden()
})

test('a chat can have its own threshold, and the inspector says where the threshold in force is set', async ({
  page,
  distill
}) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page) // GPT-4o mini, counted exactly
  const inspector = page.getByRole('dialog', { name: 'Context inspector' })
  const openInspector = async () => {
    await page.getByRole('meter', { name: 'Context usage' }).click()
    await expect(inspector).toBeVisible()
  }

  await openInspector()
  await expect(inspector.getByText('Compresses at 95% — the default in Settings.')).toBeVisible()
  await inspector.getByRole('button', { name: 'Change in Settings → Compression' }).click()
  await expect(page.getByRole('heading', { name: 'Compression' })).toBeFocused()

  // A model's own threshold.
  const thresholds = page.getByRole('group', { name: 'Threshold per model' })
  await pickModel(page, 'gpt-4o mini', /^GPT-4o mini · 128k/, 'Model for its own threshold')
  await thresholds.getByRole('textbox', { name: 'Its threshold (%)' }).fill('101')
  await thresholds.getByRole('button', { name: 'Set threshold' }).click()
  await expect(thresholds.getByText('Use a whole number from 50 to 99')).toBeVisible()
  await thresholds.getByRole('textbox', { name: 'Its threshold (%)' }).fill('80')
  await thresholds.getByRole('button', { name: 'Set threshold' }).click()
  await expect(thresholds.getByRole('listitem').filter({ hasText: 'GPT-4o mini' })).toContainText('80% · not saved yet')
  await saveBar(page).getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await page.getByRole('button', { name: 'Back to chat' }).click()
  await openInspector()
  await expect(inspector.getByText('Compresses at 80% — set for GPT-4o mini in Settings.')).toBeVisible()
  await page.keyboard.press('Escape')

  // The chat's own, set in its settings beside its window.
  await page.getByRole('button', { name: 'Chat settings' }).click()
  const dialog = page.getByRole('dialog', { name: 'Chat settings' })
  const field = dialog.getByRole('textbox', { name: 'Compression threshold for this chat (%)' })
  await expect(field).toHaveAttribute('placeholder', '80 (this model’s, in Settings)')
  await field.fill('40')
  await field.press('Enter')
  await expect(dialog.getByText('A whole number from 50 to 99')).toBeVisible()
  await field.fill('75')
  await field.press('Enter')
  await expect
    .poll(
      async () =>
        (await rpc<{ thresholdPercent: number | null }>(page, 'sessions.get', { id: sessionId })).thresholdPercent
    )
    .toBe(75)
  await snapBoth(page, 'chat-settings-threshold')
  await dialog.getByRole('button', { name: 'Done' }).click()

  const own = await rpc<Context>(page, 'chat.context', { sessionId })
  expect(own.thresholdSetting).toEqual({ percent: 75, source: 'chat' })
  expect(own.budget.thresholdPercent).toBe(75)
  await openInspector()
  await expect(inspector.getByText('Compresses at 75% — set for this chat.')).toBeVisible()
  await snapBoth(page, 'inspector-threshold-chat')
  await expectAccessible(page)
  // The popover under the meter says the same.
  await page.keyboard.press('Escape')
  await page.getByRole('meter', { name: 'Context usage' }).hover()
  await expect(page.getByText('Compresses at 75% — set for this chat.')).toBeVisible()

  // Another chat on the same model follows the model's threshold, and says so.
  const other = (await rpc<{ id: string }>(page, 'sessions.create', {})).id
  expect((await rpc<Context>(page, 'chat.context', { sessionId: other })).thresholdSetting).toEqual({
    percent: 80,
    source: 'model'
  })
  await snap(page, 'chat-model-threshold')
})
