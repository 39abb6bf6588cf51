import { expect, snap, test } from './support/fixtures'

test('a sent message is stored and still there after a reload', async ({ page, distill }) => {
  await page.goto(distill.url)
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'New chat' }).click()
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('Remember: the launch code is tangerine-42')
  await composer.press('Enter')
  await expect(page.getByText('Remember: the launch code is tangerine-42').first()).toBeVisible()
  await expect(composer).toHaveValue('')
  await expect(
    page.getByRole('log', { name: 'Messages' }).getByText('Reply to: Remember: the launch code is tangerine-42')
  ).toBeVisible()

  await page.reload()
  // The first message titles the chat; open it again from the sidebar.
  await page
    .getByRole('navigation', { name: 'Chats' })
    .getByRole('link', { name: /Remember: the launch code/ })
    .click()
  await expect(page.getByRole('main').getByText('Remember: the launch code is tangerine-42').first()).toBeVisible()
  await expect(
    page.getByRole('log', { name: 'Messages' }).getByText('Reply to: Remember: the launch code is tangerine-42')
  ).toBeVisible()
  await snap(page, 'chat-after-reload')
})

test('Shift+Enter adds a line instead of sending', async ({ page, distill }) => {
  await page.goto(distill.url)
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'New chat' }).click()
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('first line')
  await composer.press('Shift+Enter')
  await composer.pressSequentially('second line')
  await expect(composer).toHaveValue('first line\nsecond line')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(composer).toHaveValue('')
  await expect(
    page.getByRole('log', { name: 'Messages' }).getByText('first line second line', { exact: true })
  ).toBeVisible()
})

test('the API refuses calls without the token', async ({ request, distill }) => {
  const res = await request.post(`${distill.origin}/rpc/sessions.list`, { data: {} })
  expect(res.status()).toBe(401)
})
