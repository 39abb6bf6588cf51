import { expect, snap, test } from './support/fixtures'

test('a sent message is stored and still there after a reload', async ({ page, distill }) => {
  await page.goto(distill.url)
  await page.getByRole('button', { name: 'New chat' }).first().click()
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('Remember: the launch code is tangerine-42')
  await composer.press('Enter')
  await expect(page.getByText('Remember: the launch code is tangerine-42').first()).toBeVisible()
  await expect(composer).toHaveValue('')

  await page.reload()
  // The first message titles the chat; open it again from the sidebar.
  await page.getByRole('navigation', { name: 'Chats' }).getByText('Remember: the launch code is tangerine-42').first().click()
  await expect(page.getByRole('main').getByText('Remember: the launch code is tangerine-42').first()).toBeVisible()
  await snap(page, 'chat-after-reload')
})

test('Shift+Enter adds a line instead of sending', async ({ page, distill }) => {
  await page.goto(distill.url)
  await page.getByRole('button', { name: 'New chat' }).first().click()
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('first line')
  await composer.press('Shift+Enter')
  await composer.pressSequentially('second line')
  await expect(composer).toHaveValue('first line\nsecond line')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(composer).toHaveValue('')
  await expect(page.getByRole('main').getByText('second line')).toBeVisible()
})

test('the API refuses calls without the token', async ({ request, distill }) => {
  const res = await request.post(`${distill.origin}/rpc/sessions.list`, { data: {} })
  expect(res.status()).toBe(401)
})
