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
