import type { Page } from '@playwright/test'
import type { FakeProvider } from './fake-provider'
import { expectAccessible, newChat, rpc, sendAndWait } from './support/conversation'
import { expect, test } from './support/fixtures'

/** A system prompt of about 1,200 words: past the 1,024-token minimum the providers cache. */
const SYSTEM_PROMPT = Array.from(
  { length: 120 },
  (_, i) => `Rule ${i + 1}: answer plainly, cite the file you read, and keep each step short.`
).join('\n')

const count = (n: number) => n.toLocaleString('en-US')

/** The chat's generation requests to Anthropic (token counts and titles are recorded apart). */
function anthropicReplies(fake: FakeProvider) {
  return fake.requests.filter((r) => r.provider === 'anthropic' && r.outcome === 'ok')
}

async function anthropicChat(page: Page): Promise<string> {
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', {
    id: sessionId,
    provider: 'anthropic',
    modelId: 'claude-sonnet-4-5',
    systemPrompt: SYSTEM_PROMPT
  })
  await expect(page.getByRole('combobox', { name: 'Model' })).toContainText('Claude Sonnet 4.5')
  return sessionId
}

test('the meter and the inspector say what came from the prompt cache, and Settings can turn it off', async ({
  page,
  distill,
  fake
}) => {
  expect(SYSTEM_PROMPT.split(/\s+/).length).toBeGreaterThanOrEqual(1_100)
  await page.goto(distill.url)
  const sessionId = await anthropicChat(page)
  for (const question of ['Where do we start?', 'What about the retry policy?', 'And the token budget?'])
    await sendAndWait(page, sessionId, question)

  const replies = anthropicReplies(fake)
  expect(replies).toHaveLength(3)
  const last = replies.at(-1)!
  // The fake served the system prompt and the earlier turns from its cache.
  expect(last.cache!.read).toBeGreaterThan(1_024)

  // The popover: one line about the last reply, as the provider reported it, with its price.
  const meter = page.getByRole('meter', { name: 'Context usage' })
  await meter.hover()
  const popover = page.getByRole('tooltip')
  await expect(popover).toBeVisible()
  await expect(popover).toContainText('Claude Sonnet 4.5')
  await expect(popover).toContainText(
    new RegExp(
      `Last reply: ${count(last.cache!.read)} of ${count(last.inputTokens!)} input tokens from the cache · ≈ \\$0\\.\\d+`
    )
  )
  await expect(popover).toContainText('Reserved for the reply') // the rest of the popover stays
  await page.mouse.move(10, 10)
  await expect(popover).toBeHidden()

  // The inspector: "Cost", folded to one line, unfolds to the last reply and the chat.
  await meter.click()
  const dialog = page.getByRole('dialog', { name: 'Context inspector' })
  await expect(dialog).toBeVisible()
  const cost = dialog.locator('summary', { hasText: 'Cost' })
  // What the cache saved: the replies at full input price, less what they cost.
  await expect(cost).toContainText(/^Cost\s*This chat ≈ \$0\.\d+ · the cache saved ≈ \$0\.\d+$/)
  await cost.click()
  const row = (name: string) => dialog.getByRole('row', { name: new RegExp(`^${name}`) })
  const sum = (pick: (r: (typeof replies)[number]) => number) => replies.reduce((s, r) => s + pick(r), 0)
  await expect(row('From the cache').getByRole('cell')).toHaveText([
    count(last.cache!.read),
    count(sum((r) => r.cache!.read))
  ])
  await expect(row('Written to the cache').getByRole('cell')).toHaveText([
    count(last.cache!.write),
    count(sum((r) => r.cache!.write))
  ])
  const uncached = (r: (typeof replies)[number]) => r.inputTokens! - r.cache!.read - r.cache!.write
  await expect(row('Uncached input').getByRole('cell')).toHaveText([count(uncached(last)), count(sum(uncached))])
  await expect(row('Price at Claude Sonnet 4.5 prices').getByRole('cell')).toHaveText([/^≈ \$/, /^≈ \$/])
  await expect(dialog.getByText('This chat: 3 replies.')).toBeVisible()
  await expectAccessible(page)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // Settings → Providers: prompt caching off for Anthropic, saved with the page's one Save.
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  const anthropic = page.getByRole('region', { name: 'Anthropic', exact: true })
  const caching = anthropic.getByRole('checkbox', { name: 'Prompt caching' })
  await expect(caching).toBeChecked()
  await expect(caching).toHaveAccessibleDescription(/bills it at its cached price/)
  await expect(page.getByRole('region', { name: 'OpenAI', exact: true }).getByRole('checkbox')).toBeChecked()
  await expect(page.getByRole('region', { name: /Google/ }).getByRole('checkbox')).toHaveCount(0)
  await caching.uncheck()
  const saveBar = page.getByRole('region', { name: 'Unsaved changes' })
  await expect(saveBar.getByRole('status')).toHaveText('Unsaved changes: Anthropic prompt caching')
  await saveBar.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(saveBar).toBeHidden()
  await expect(caching).not.toBeChecked()
  const saved = await rpc<{ promptCaching: Record<string, boolean> }>(page, 'settings.get', {})
  expect(saved.promptCaching).toEqual({ anthropic: false })

  await page.getByRole('button', { name: 'Back to chat' }).click()
  await sendAndWait(page, sessionId, 'One more question, without the cache fields.')
  const next = anthropicReplies(fake).at(-1)!
  expect(next.seq).toBeGreaterThan(last.seq)
  expect(JSON.stringify(next.body)).not.toContain('cache_control')
  expect(next.cache!.breakpoints).toBe(0)
  expect(next.cache!.read).toBe(0)

  // The popover says so: nothing came from the cache this time.
  await meter.hover()
  await expect(popover).toContainText(`Last reply: ${count(next.inputTokens!)} input tokens, none from the cache`)
})
