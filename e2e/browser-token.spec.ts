import { expect, test } from './support/fixtures'

test('the token leaves the address bar, is never a cookie, survives a reload and opens the event stream', async ({
  page,
  context,
  distill
}) => {
  const setCookies: string[] = []
  page.on('response', (response) => {
    const cookie = response.headers()['set-cookie']
    if (cookie) setCookies.push(cookie)
  })
  await page.goto(distill.url)
  const sidebar = page.getByRole('navigation', { name: 'Chats' })
  await expect(sidebar.getByRole('button', { name: 'New chat' })).toBeVisible()
  expect(page.url()).not.toContain('token')

  // A chat made elsewhere reaches the open page through the event stream.
  const token = new URLSearchParams(new URL(distill.url).hash.slice(1)).get('token')!
  const created = await fetch(`${distill.origin}/rpc/sessions.create`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Arrived by the event stream' })
  })
  expect(created.status).toBe(200)
  await expect(sidebar.getByText('Arrived by the event stream')).toBeVisible()

  await page.reload()
  await expect(sidebar.getByText('Arrived by the event stream')).toBeVisible()
  expect(await context.cookies()).toEqual([])
  expect(setCookies).toEqual([])

  // Another tab without the link has no token: sessionStorage belongs to one tab.
  const other = await context.newPage()
  await other.goto(distill.origin)
  await expect(other.getByRole('heading', { name: 'This page needs the link with its access token.' })).toBeVisible()
})
