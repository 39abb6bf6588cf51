import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'
import { expect, snap } from './fixtures'

/**
 * Helpers for the compression, history and accessibility specs: API calls made from the page
 * (same origin, with the token the page keeps in sessionStorage), long conversations built
 * quickly, and screenshots in both colour schemes.
 */

/** Calls a route the way the renderer does, and returns its data (throws on `ok: false`). */
export async function rpc<T = unknown>(page: Page, route: string, input: unknown): Promise<T> {
  const result = await page.evaluate(
    async ([r, body]) => {
      const token = sessionStorage.getItem('distill.token') ?? ''
      const res = await fetch(`/rpc/${r}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body)
      })
      return (await res.json()) as { ok: boolean; data?: unknown; error?: { message: string } }
    },
    [route, input] as const
  )
  if (!result.ok) throw new Error(`${route}: ${result.error?.message ?? 'failed'}`)
  return result.data as T
}

export async function newChat(page: Page): Promise<string> {
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'New chat' }).click()
  await expect(page.getByRole('combobox', { name: 'Model' })).toBeEnabled()
  return openSessionId(page)
}

/** The id of the open chat (the last one the app remembers). */
export async function openSessionId(page: Page): Promise<string> {
  const id = await page.evaluate(() => localStorage.getItem('distill.lastSession'))
  if (!id) throw new Error('No chat is open')
  return id
}

interface Message {
  role: string
  status: string
}

/** Sends a message through the API and waits until its reply has finished. */
export async function sendAndWait(page: Page, sessionId: string, text: string): Promise<void> {
  await rpc(page, 'chat.send', { sessionId, text })
  await expect
    .poll(async () => {
      const { messages } = await rpc<{ messages: Message[] }>(page, 'chat.messages', { sessionId })
      return messages.at(-1)?.status
    })
    .not.toBe('streaming')
}

/** Types a message in the composer, sends it, and waits for the reply to finish. */
export async function sendInComposer(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill(text)
  await composer.press('Enter')
  await expect(composer).toHaveValue('')
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 })
}

const TOPICS = [
  'the database schema',
  'the retry policy',
  'the token budget',
  'the release checklist',
  'the error messages',
  'the onboarding flow'
]

/** A reply with Markdown: a list, inline code and a highlighted code block. */
export function markdownReply(i: number): string {
  const topic = TOPICS[i % TOPICS.length]!
  return [
    `Here is how I would approach **${topic}** (step ${i + 1}):`,
    '',
    `1. Keep \`step${i + 1}\` small and testable.`,
    '2. Write the decision down next to the code.',
    '',
    '```ts',
    `export function step${i + 1}(input: string): string {`,
    `  // ${topic}`,
    `  return input.trim().toLowerCase() + '-${i + 1}'`,
    '}',
    '```',
    '',
    `| Option | Cost |\n| --- | --- |\n| A | ${i + 2} |\n| B | ${i + 5} |`
  ].join('\n')
}

/** Fills a chat with `turns` exchanges (replies in Markdown), through the API. */
export async function longConversation(
  page: Page,
  fake: { script(steps: Array<{ reply: string }>): void },
  sessionId: string,
  turns: number,
  userText: (i: number) => string = (i) => `Question ${i + 1}: how should we handle ${TOPICS[i % TOPICS.length]}?`
): Promise<void> {
  for (let i = 0; i < turns; i++) {
    fake.script([{ reply: markdownReply(i) }])
    await sendAndWait(page, sessionId, userText(i))
  }
}

/** Screenshots in the light and the dark scheme (colour transitions settle first). */
export async function snapBoth(page: Page, name: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' })
  await page.waitForTimeout(200)
  await snap(page, name)
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.waitForTimeout(250)
  await snap(page, `${name}-dark`)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.waitForTimeout(200)
}

/**
 * Waits for leftover toasts to leave, then for transitions and finite animations to end (a toast
 * fading is half transparent, and axe would judge its contrast mid-way); endless ones, like the
 * meter's pulsing dot, are left running.
 */
async function settled(page: Page): Promise<void> {
  // A passing toast ("Settings saved") is judged by axe mid-way through the theme switch or its
  // exit; it is checked while it is the point of a test, not as a leftover of an earlier step.
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {})
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { timeout: 5_000 }
  )
}

/** No serious or critical axe violations outside the sidebar (its links are named by title alone, on purpose). */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  await settled(page)
  const { violations } = await new AxeBuilder({ page }).exclude('#sidebar').analyze()
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

/** No axe violations of any impact outside the sidebar: the stricter check for the chat header and Settings. */
export async function expectAccessible(page: Page): Promise<void> {
  await settled(page)
  const { violations } = await new AxeBuilder({ page }).exclude('#sidebar').analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`)).toEqual([])
}

/** Opens a new chat from the sidebar and waits until its model picker is usable. */
export async function openNewChat(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'New chat' }).click()
  await expect(page.getByRole('combobox', { name: 'Model' })).toBeEnabled()
}

/** Adds a custom model with a small window through Settings, then goes back to the chat view. */
export async function addSmallModel(page: Page, id = 'tiny-4k', window = 4096, maxOutput = 512): Promise<void> {
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Add model' }).click()
  const row = page.getByRole('group', { name: 'Custom model 1' })
  await row.getByRole('combobox', { name: 'Provider' }).selectOption('openai')
  await row.getByRole('textbox', { name: 'Model ID' }).fill(id)
  await row.getByRole('textbox', { name: 'Context window' }).fill(String(window))
  await row.getByRole('textbox', { name: 'Max output' }).fill(String(maxOutput))
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await page.getByRole('button', { name: 'Back to chat' }).click()
}

/** Picks a model in a model picker (the chat's "Model" unless named): opens it, types to filter, chooses. */
export async function pickModel(page: Page, search: string, option: string | RegExp, picker = 'Model'): Promise<void> {
  await page.getByRole('combobox', { name: picker, exact: true }).click()
  await page.getByRole('combobox', { name: 'Search models' }).fill(search)
  await page.getByRole('listbox', { name: 'Models' }).getByRole('option', { name: option }).click()
  await expect(page.getByRole('listbox', { name: 'Models' })).toBeHidden()
}

/** Whether two elements' boxes overlap on screen (a toast over a button). */
export async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [p, q] = [await a.boundingBox(), await b.boundingBox()]
  // Something no longer shown (a toast that timed out on a slow machine) covers nothing.
  if (!p || !q) return false
  return p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height
}
