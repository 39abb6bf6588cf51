import { newChat, rpc } from './support/conversation'
import { expect, test } from './support/fixtures'

test('compression settings are saved, survive a reload, and move the trigger the meter shows', async ({ page, distill }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  const before = await rpc<{ budget: { threshold: number; thresholdPercent: number } }>(page, 'chat.context', { sessionId })
  expect(before.budget.thresholdPercent).toBe(95)

  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('spinbutton', { name: 'Threshold' }).fill('80')
  await page.getByRole('spinbutton', { name: 'Recent tokens kept verbatim' }).fill('500')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()

  await page.reload()
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('spinbutton', { name: 'Threshold' })).toHaveValue('80')
  await expect(page.getByRole('spinbutton', { name: 'Recent tokens kept verbatim' })).toHaveValue('500')

  const after = await rpc<{ budget: { threshold: number; thresholdPercent: number } }>(page, 'chat.context', { sessionId })
  expect(after.budget.thresholdPercent).toBe(80)
  expect(after.budget.threshold).toBeLessThan(before.budget.threshold)
})

test('a model can have its own threshold, and the meter says where the threshold in force comes from', async ({ page, distill }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page) // GPT-4o mini, counted exactly
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  const editor = page.getByRole('form', { name: 'Threshold per model' })
  await editor.getByRole('combobox', { name: 'Model for its own threshold' }).selectOption({ label: 'GPT-4o mini · 128k' })
  await editor.getByRole('textbox', { name: 'Its threshold (%)' }).fill('101')
  await editor.getByRole('button', { name: 'Set threshold' }).click()
  await expect(editor.getByText('Use a whole number from 50 to 99')).toBeVisible()
  await editor.getByRole('textbox', { name: 'Its threshold (%)' }).fill('70')
  await editor.getByRole('button', { name: 'Set threshold' }).click()
  await expect(editor.getByRole('listitem').filter({ hasText: 'GPT-4o mini' })).toContainText('70%')

  const own = await rpc<{ budget: { thresholdPercent: number }; thresholdSetting: { percent: number; source: string } }>(page, 'chat.context', { sessionId })
  expect(own.budget.thresholdPercent).toBe(70)
  expect(own.thresholdSetting).toEqual({ percent: 70, source: 'model' })

  await page.getByRole('button', { name: 'Back to chat' }).click()
  await page.getByRole('meter', { name: 'Context usage' }).hover()
  await expect(page.getByText('Threshold: 70% is set for GPT-4o mini in Settings → Models.')).toBeVisible()

  // Removing it goes back to the global threshold.
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await editor.getByRole('button', { name: 'Remove the threshold for GPT-4o mini (OpenAI)' }).click()
  await expect(editor.getByRole('listitem')).toHaveCount(0)
  const global = await rpc<{ thresholdSetting: { percent: number; source: string } }>(page, 'chat.context', { sessionId })
  expect(global.thresholdSetting).toEqual({ percent: 95, source: 'global' })
})
