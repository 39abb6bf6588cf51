import { newChat, rpc } from './support/conversation'
import { expect, test } from './support/fixtures'

// The provider accepts the request, sends its stream head and then not a single word.
const SILENT = [{ chunks: [], fault: 'stall' as const }]

test('a silent provider shows whom the reply waits for and for how long, and Stop still works', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  await newChat(page)
  fake.script(SILENT)
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('Are you there?')
  await composer.press('Enter')
  const log = page.getByRole('log', { name: 'Messages' })
  await expect(log.getByText(/Waiting for gpt-4o-mini \(OpenAI\)… \d+ s/)).toBeVisible()
  await page.getByRole('button', { name: 'Stop' }).click()
  await expect(log.locator('.message-stopped')).toBeVisible()
  await expect(log.getByText(/Waiting for/)).toHaveCount(0)
})

test('the first-words timeout from Settings gives up on a silent provider', async ({ page, distill, fake }) => {
  test.setTimeout(90_000)
  await page.goto(distill.url)
  await newChat(page)
  await rpc(page, 'settings.update', { firstChunkTimeoutSeconds: 10 })
  fake.script(SILENT)
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('Still there?')
  await composer.press('Enter')
  await expect(
    page.getByRole('log', { name: 'Messages' }).getByText(/stopped answering, so the request timed out/)
  ).toBeVisible({
    timeout: 60_000
  })
})
