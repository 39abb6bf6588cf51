import { longConversation, newChat, rpc, snapBoth } from './support/conversation'
import { expect, test } from './support/fixtures'

test('tiered: New topic, then a summary whose topics survive a restart of the server', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, strategy: 'tiered' })
  await longConversation(
    page,
    fake,
    sessionId,
    6,
    (i) => `Planning question ${i + 1}: the venue code is KESTREL-${i + 1}.`
  )
  const newTopic = page.getByRole('button', { name: 'New topic' })
  await expect(newTopic).toBeVisible()
  await newTopic.click()
  await expect(page.getByText('New topic started')).toBeVisible()
  await longConversation(
    page,
    fake,
    sessionId,
    6,
    (i) => `Budget question ${i + 1}: the catering quote is €${1840 + i}.`
  )
  await rpc(page, 'compression.run', { sessionId })
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary).toBeVisible()

  // Restart the server on the same database: the tiered history is still there.
  const db = distill.dbFile
  await distill.stop({ keepData: true })
  const { startDistill } = await import('./support/distill-server')
  const { fakeProviderEnv } = await import('./support/fixtures')
  const again = await startDistill({ dbFile: db, env: fakeProviderEnv(fake) })
  try {
    await page.goto(again.url)
    await page.getByRole('navigation', { name: 'Chats' }).getByRole('link').first().click()
    const region = page.getByRole('region', { name: 'Summary' })
    await region.getByRole('button', { expanded: false }).first().click()
    await expect(region.getByText(/Earlier topic|Archived topics|Earlier in the current topic/).first()).toBeVisible()
    const snapshots = await rpc<Array<{ kind: string }>>(page, 'compression.snapshots', { sessionId })
    expect(snapshots.some((s) => s.kind === 'topic')).toBe(true)
    await snapBoth(page, 'tiered-summary')
  } finally {
    await again.stop()
  }
})

test("importance: the full history shows each turn's class and score", async ({ page, distill, fake }) => {
  test.setTimeout(120_000)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, strategy: 'importance' })
  await longConversation(page, fake, sessionId, 6, (i) =>
    i === 2
      ? 'We decided to switch the database to PostgreSQL 16 on port 5433 with `pg_stat_statements` enabled.'
      : `ok, thanks ${i}`
  )
  await page.getByRole('button', { name: 'View full history' }).click()
  const dialog = page.getByRole('dialog', { name: 'Full history' })
  await expect(dialog.getByText(/^(Key turn|Important|Routine) · \d+\.\d$/).first()).toBeVisible()
  await snapBoth(page, 'importance-history')
})
