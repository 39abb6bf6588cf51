import type { Page } from '@playwright/test'
import { samplePng } from '../test/support/sample-files'
import { startFakeProvider } from './fake-provider'
import { expectAccessible, longConversation, newChat, openNewChat, rpc, snapBoth } from './support/conversation'
import { startDistill } from './support/distill-server'
import { expect, snap, test } from './support/fixtures'

/** What a daily user meets: the model picker, providers, summaries on small screens, toasts, ↑ to edit. */

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 }
]

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Providers' })).toBeVisible()
}

test('with only a local server: the picker searches, puts it first, reads the windows Ollama tells, and Settings agrees', async ({
  page
}) => {
  test.setTimeout(60_000)
  // An Ollama with nothing loaded and no num_ctx set: only /api/show's model_info tells the windows.
  const local = await startFakeProvider({
    models: ['llama3.2:latest', 'qwen2.5vl:7b'],
    localServer: { kind: 'ollama-model-info', windows: { 'llama3.2:latest': 131_072, 'qwen2.5vl:7b': 32_768 } }
  })
  const app = await startDistill({
    env: { OPENAI_COMPATIBLE_BASE_URL: local.baseURLs.openaiCompatible, OPENAI_COMPATIBLE_API_KEY: 'fake-local-0004' }
  })
  try {
    await page.setViewportSize(SIZES[0]!)
    await page.goto(app.url)
    await openNewChat(page)
    const picker = page.getByRole('combobox', { name: 'Model' })
    await expect(picker).toHaveText('llama3.2:latest · 131.1k')
    await expect(page.getByRole('button', { name: 'window unknown — set it' })).toBeHidden()

    // Keyboard first: ↓ opens it with the search focused; the providers without a key wait behind "Show all".
    await picker.focus()
    await page.keyboard.press('ArrowDown')
    const search = page.getByRole('combobox', { name: 'Search models' })
    await expect(search).toBeFocused()
    const list = page.getByRole('listbox', { name: 'Models' })
    await expect(
      list.getByRole('option', { name: 'llama3.2:latest · 131.1k · detected', exact: true })
    ).toHaveAttribute('aria-selected', 'true')
    await expect(
      list.getByRole('option', { name: 'qwen2.5vl:7b · 32.8k · detected · images', exact: true })
    ).toBeVisible()
    await expect(list.getByRole('option', { name: /GPT-4o/ })).toHaveCount(0)
    const showAll = list.getByRole('option', { name: /^Show all models \(\d+ more need a key or address\)$/ })
    await expect(showAll).toBeVisible()
    await expect(
      list
        .getByRole('option', { name: 'llama3.2:latest · 131.1k · detected', exact: true })
        .getByTitle(/Ollama, model_info context_length/)
    ).toBeVisible()
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await snapBoth(page, `picker-open-${size.width}`)
    }
    await page.setViewportSize(SIZES[0]!)
    await expectAccessible(page)

    // Typing filters every provider's models; the ones missing a key say so.
    await search.fill('gpt-4o mini')
    await expect(list.getByRole('option', { name: 'GPT-4o mini · 128k · images · needs key' })).toBeVisible()
    await expect(list.getByRole('option', { name: /llama/ })).toHaveCount(0)
    await search.fill('qwen')
    await page.keyboard.press('Enter')
    await expect(list).toBeHidden()
    await expect(picker).toBeFocused()
    await expect(picker).toHaveText('qwen2.5vl:7b · 32.8k')

    // The detected window survives a reload.
    await page.reload()
    await expect(page.getByRole('combobox', { name: 'Model' })).toHaveText('qwen2.5vl:7b · 32.8k')
    await page.getByRole('combobox', { name: 'Model' }).click()
    await list.getByRole('option', { name: /^Show all models/ }).click()
    await expect(list.getByRole('option', { name: 'Claude Haiku 4.5 · 200k · images · needs key' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(list).toBeHidden()

    // Settings: the one working provider first, the others folded; no default saved, so new chats
    // start on the model chosen in the chat, and the field names it.
    await openSettings(page)
    const cards = page.locator('.provider-card h3')
    await expect(cards.first()).toHaveText('Local / OpenAI-compatible')
    await expect(page.getByRole('region', { name: 'Anthropic', exact: true })).toBeHidden()
    await expect(page.getByText('Set up another provider')).toBeVisible()
    const defaultModel = page.getByRole('combobox', { name: 'Default model for new chats' })
    await expect(defaultModel).toHaveText('Last model chosen in a chat')
    await expect(defaultModel).toHaveAccessibleDescription(/now qwen2\.5vl:7b\.$/)
    await snapBoth(page, 'settings-providers-local-only')
    await expectAccessible(page)

    // Test connection tries the address typed in the field, not the saved one.
    const card = page.getByRole('region', { name: 'Local / OpenAI-compatible', exact: true })
    await expect(card.getByRole('status')).toHaveText(/^Connected in/)
    await page.getByLabel('Local / OpenAI-compatible base URL', { exact: true }).fill('http://127.0.0.1:1/v1')
    await card.getByRole('button', { name: 'Test connection' }).click()
    await expect(card.getByRole('status')).toHaveText(
      /^Cannot reach http:\/\/127\.0\.0\.1:1\/v1\/models.*\(what is typed, not saved yet\)$/
    )
    await expect(card.getByText('Ready', { exact: true })).toBeVisible() // the saved address still works
    await snap(page, 'settings-test-typed-address')

    // The vision refusal names a model that can: the user's own, marked "Images: Yes".
    await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Discard' }).click()
    await rpc(page, 'settings.update', {
      customModels: [
        {
          provider: 'openai-compatible',
          id: 'house-vision',
          label: 'House Vision',
          contextWindow: 8192,
          maxOutput: 1024,
          vision: true
        },
        { provider: 'openai-compatible', id: 'house-text', contextWindow: 8192, maxOutput: 1024, vision: false }
      ]
    })
    await page.getByRole('button', { name: 'Back to chat' }).click()
    const sessionId = await page.evaluate(() => localStorage.getItem('distill.lastSession'))
    await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai-compatible', modelId: 'house-text' })
    await page.reload()
    await page
      .getByTestId('attach-input')
      .setInputFiles([{ name: 'chart.png', mimeType: 'image/png', buffer: samplePng(64, 40, [200, 60, 60]) }])
    await expect(
      page.getByText(/house-text cannot see images\. Choose a model that can, such as House Vision/)
    ).toBeVisible()
  } finally {
    await app.stop()
    await local.close()
  }
})

test('an expanded summary leaves the newest message readable at 1024×700, and ↑ edits the last message', async ({
  page,
  distill,
  fake
}) => {
  test.setTimeout(90_000)
  await page.setViewportSize(SIZES[1]!)
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await longConversation(page, fake, sessionId, 8)
  await rpc(page, 'compression.run', { sessionId, summarizer: 'extractive', retentionTokens: 400 })
  const region = page.getByRole('region', { name: 'Summary' })
  await region.getByRole('button', { name: /messages? summarized/ }).click()
  await expect(region.getByRole('button', { name: 'Undo' })).toBeVisible()
  const log = page.getByRole('log', { name: 'Messages' })
  await log.evaluate((el) => (el.scrollTop = el.scrollHeight))
  // The summary takes at most about a third of the window; the list keeps most of the rest.
  expect((await region.boundingBox())!.height).toBeLessThan(700 * 0.45)
  expect((await log.boundingBox())!.height).toBeGreaterThan(250)
  // Most of the newest reply is in view.
  await expect(log.locator('article').last()).toBeInViewport({ ratio: 0.6 })
  await snapBoth(page, 'summary-expanded-1024')
  await page.setViewportSize(SIZES[0]!)
  await snapBoth(page, 'summary-expanded-1440')

  // The context inspector fits at 1024×700: its Close button is in view.
  await page.setViewportSize(SIZES[1]!)
  await page.getByRole('meter', { name: 'Context usage' }).click()
  const inspector = page.getByRole('dialog', { name: 'Context inspector' })
  await expect(inspector.getByRole('button', { name: 'Close' }).last()).toBeInViewport()
  const box = (await inspector.boundingBox())!
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.y + box.height).toBeLessThanOrEqual(700)
  await snapBoth(page, 'inspector-1024')
  await page.keyboard.press('Escape')

  // ↑ in the empty box puts the last message back; sending makes a new version of it, not a new turn.
  const users = async () =>
    (await rpc<{ messages: { role: string }[] }>(page, 'chat.messages', { sessionId })).messages.filter(
      (m) => m.role === 'user'
    ).length
  const before = await users()
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.focus()
  await page.keyboard.press('ArrowUp')
  await expect(composer).toHaveValue('Question 8: how should we handle the retry policy?')
  await expect(page.getByRole('status').filter({ hasText: 'Editing your last message' })).toBeVisible()
  await snap(page, 'composer-editing-last')
  fake.script([{ reply: 'An answer to the edited question' }])
  await composer.fill('Question 8, edited: how should we retry?')
  await composer.press('Enter')
  await expect(log.getByText('An answer to the edited question')).toBeVisible()
  await expect(log.getByLabel('Version 2 of 2')).toBeVisible()
  expect(await users()).toBe(before)
  await expect(page.getByRole('status').filter({ hasText: 'Editing your last message' })).toBeHidden()
})
