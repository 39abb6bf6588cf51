import type { Page } from '@playwright/test'
import { startDistill } from './support/distill-server'
import { expectAccessible, openNewChat, pickModel, snapBoth } from './support/conversation'
import { expect, snap, test } from './support/fixtures'

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Providers' })).toBeVisible()
}

async function send(page: Page, text: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill(text)
  await composer.press('Enter')
  await expect(composer).toHaveValue('')
}

/** Generation requests only: token counts and model lists also reach the fake. */
function generations<R extends { provider: string }>(requests: readonly R[]): R[] {
  return requests.filter((r) => !r.provider.endsWith('count-tokens') && r.provider !== 'openai-models')
}

test('a key saved in Settings shows only its last four characters, also after a reload', async ({ page, distill }) => {
  const secret = 'sk-test-do-not-show-9876'
  await page.goto(distill.url)
  await openSettings(page)
  const openai = page.getByRole('region', { name: 'OpenAI', exact: true })
  await expect(openai.getByText('Key set ••••0001 (from environment)')).toBeVisible()
  await expect(openai.getByRole('button', { name: 'Remove key' })).toBeDisabled()

  const keyField = page.getByLabel('OpenAI API key', { exact: true })
  await expect(keyField).toHaveAttribute('type', 'password')
  await keyField.fill(secret)
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(openai.getByText('Key set ••••9876 (from Settings)')).toBeVisible()
  await expect(keyField).toHaveValue('')
  await expect(page.getByText('Settings saved')).toBeVisible()

  await page.reload()
  await openSettings(page)
  await expect(openai.getByText('Key set ••••9876 (from Settings)')).toBeVisible()
  expect(await page.content()).not.toContain(secret)
  const values = await page
    .locator('input, textarea')
    .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value))
  expect(values.join('\n')).not.toContain(secret)
  await snapBoth(page, 'settings-providers')
  await expectAccessible(page)

  // Removing it falls back to the key in the environment.
  await openai.getByRole('button', { name: 'Remove key' }).click()
  await expect(openai.getByText('Key set ••••9876 (from Settings) — removed when you save')).toBeVisible()
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(openai.getByText('Key set ••••0001 (from environment)')).toBeVisible()
})

test('an invalid base URL is refused next to its field', async ({ page, distill }) => {
  await page.goto(distill.url)
  await openSettings(page)
  const local = page.getByRole('region', { name: 'Local / OpenAI-compatible' })
  const field = page.getByLabel('Local / OpenAI-compatible base URL', { exact: true })
  await expect(field).toHaveAttribute('placeholder', /^http:\/\/127\.0\.0\.1:\d+\/v1$/) // the fake's, from the environment
  await field.fill('localhost 11434')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(field).toHaveAccessibleDescription(/Enter a full URL such as http:\/\/127\.0\.0\.1:11434\/v1/)
  await expect(local.getByText('Enter a full URL such as http://127.0.0.1:11434/v1')).toBeVisible()
  await expect(field).toBeFocused()
  await snap(page, 'settings-provider-invalid-url')
  await expectAccessible(page)

  // Typing clears the complaint; a good address is saved.
  await field.fill('ftp://example.com')
  await expect(field).not.toHaveAttribute('aria-invalid', 'true')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(local.getByText('Use an http:// or https:// address')).toBeVisible()

  await field.fill('') // back to the environment's: nothing left to save there
  const openaiField = page.getByLabel('OpenAI base URL', { exact: true })
  await expect(page.getByLabel('OpenAI base URL', { exact: true })).toHaveValue('')
  await openaiField.fill('https://api.example.com/v1/')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  await expect(openaiField).toHaveValue('https://api.example.com/v1')
})

test('the model picked in the chat header answers the next message', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  await openNewChat(page)
  const picker = page.getByRole('combobox', { name: 'Model' })
  await expect(picker).toHaveAttribute('data-value', 'openai:gpt-4o-mini')
  await expect(picker).toHaveText('GPT-4o mini · 128k')

  await pickModel(page, 'sonnet 4.5', /^Claude Sonnet 4\.5 · 200k/)
  await expect(picker).toHaveText('Claude Sonnet 4.5 · 200k')
  await expect(page.getByRole('meter', { name: 'Context usage' })).toHaveAttribute(
    'aria-valuemax',
    String(200_000 - 64_000 - 10_000)
  )
  fake.script([{ reply: 'Hello from the fake Claude' }])
  await send(page, 'Which model are you?')
  const log = page.getByRole('log', { name: 'Messages' })
  await expect(log.getByText('Hello from the fake Claude')).toBeVisible()
  expect(generations(fake.requests).at(-1)).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5' })
  await snapBoth(page, 'chat-header-picker')

  await pickModel(page, 'gemini 2.5 flash', /^Gemini 2\.5 Flash · /)
  fake.script([{ reply: 'And now Gemini' }])
  await send(page, 'And now?')
  await expect(log.getByText('And now Gemini')).toBeVisible()
  expect(generations(fake.requests).at(-1)).toMatchObject({ provider: 'gemini', model: 'gemini-2.5-flash' })

  // The choice belongs to the chat and survives a reload.
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveAttribute('data-value', 'google:gemini-2.5-flash')
})

test('the system prompt is saved with the chat and sent with each request', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  await openNewChat(page)
  await page.getByRole('button', { name: 'System prompt' }).click()
  const dialog = page.getByRole('dialog', { name: 'System prompt' })
  await expect(dialog).toBeVisible()
  const prompt = dialog.getByRole('textbox', { name: 'System prompt' })
  await expect(prompt).toBeFocused()
  await prompt.fill('You are a pirate. Answer like one.')
  await snapBoth(page, 'system-prompt-dialog')
  await expectAccessible(page)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: 'System prompt' })).toBeFocused()

  await send(page, 'Ahoy?')
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('Reply to: Ahoy?')).toBeVisible()
  const body = generations(fake.requests).at(-1)!.body as { messages: Array<{ role: string; content: unknown }> }
  expect(body.messages[0]).toMatchObject({ role: 'system', content: 'You are a pirate. Answer like one.' })

  // Cancel keeps what was saved.
  await page.getByRole('button', { name: 'System prompt' }).click()
  await expect(prompt).toHaveValue('You are a pirate. Answer like one.')
  await prompt.fill('Something else')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await page.getByRole('button', { name: 'System prompt' }).click()
  await expect(prompt).toHaveValue('You are a pirate. Answer like one.')
})

test('a refused key shows the error in plain words, and Retry works once it is fixed', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  await openNewChat(page)
  fake.script([{ fault: 'http401' }])
  await send(page, 'Hello there')
  const log = page.getByRole('log', { name: 'Messages' })
  const failure = log.getByRole('note')
  await expect(failure).toContainText('OpenAI refused the API key (401). Check the key in Settings.')
  await expect(failure.getByRole('button', { name: 'Open Settings' })).toBeVisible()
  await snap(page, 'chat-reply-401')

  fake.script([{ reply: 'Back in business' }])
  await failure.getByRole('button', { name: 'Retry' }).click()
  await expect(log.getByText('Back in business')).toBeVisible()
  await expect(log.getByRole('note')).toHaveCount(0)
})

test('without a key, the reply says so and Open Settings leads to the providers', async ({ page, fake }) => {
  const bare = await startDistill() // no provider keys or addresses at all
  try {
    await page.goto(bare.url)
    await openNewChat(page)
    const setup = page.getByRole('region', { name: 'Connect a model to start' })
    await expect(setup).toBeVisible()
    await snapBoth(page, 'chat-first-run-setup')
    const picker = page.getByRole('combobox', { name: 'Model' })
    await expect(picker).toHaveText('GPT-4o mini · 128k')
    await send(page, 'Anyone there?')
    const failure = page.getByRole('log', { name: 'Messages' }).getByRole('note')
    await expect(failure).toContainText('Add your OpenAI API key in Settings to chat with gpt-4o-mini.')
    await snap(page, 'chat-reply-not-configured')

    await failure.getByRole('button', { name: 'Open Settings' }).click()
    await expect(page.getByRole('heading', { name: 'Providers' })).toBeFocused()
    const openai = page.getByRole('region', { name: 'OpenAI', exact: true })
    await expect(openai.getByText('No key')).toBeVisible()
    await expect(openai.getByText('Needs key')).toBeVisible()

    await page.getByLabel('OpenAI API key', { exact: true }).fill('sk-typed-in-settings-4321')
    await page.getByLabel('OpenAI base URL', { exact: true }).fill(fake.baseURLs.openai)
    await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
    await expect(openai.getByText('Key set ••••4321 (from Settings)')).toBeVisible()
    await expect(openai.getByText('Ready')).toBeVisible()

    await page.getByRole('button', { name: 'Back to chat' }).click()
    await expect(picker).toHaveText('GPT-4o mini · 128k')
    fake.script([{ reply: 'Now I can answer' }])
    await page.getByRole('log', { name: 'Messages' }).getByRole('button', { name: 'Retry' }).click()
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('Now I can answer')).toBeVisible()
  } finally {
    await bare.stop()
  }
})

test('Test connection says how each provider answers, and Ready appears only after it worked', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  await openSettings(page)
  // Every provider here has its own address (the fake), so opening Settings checks them all.
  for (const name of ['OpenAI', 'Anthropic', 'Google Gemini', 'Local / OpenAI-compatible']) {
    const card = page.getByRole('region', { name, exact: true })
    await expect(card.getByText('Ready')).toBeVisible()
    await expect(card.getByRole('status')).toHaveText(/^Connected in [\d,]+ ms · 5 models listed$/)
  }
  const openai = page.getByRole('region', { name: 'OpenAI', exact: true })
  await page.getByLabel('OpenAI API key', { exact: true }).fill('bad-key')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  // A new key on its own address is checked again at once.
  await expect(openai.getByText('Not working')).toBeVisible()
  await openai.getByRole('button', { name: 'Test connection' }).click()
  await expect(openai.getByText('Not working')).toBeVisible()
  await expect(openai.getByRole('status')).toHaveText(/^The key was refused \(401\)\. Check it in Settings\./)
  await snapBoth(page, 'settings-provider-check')
  expect(fake.requests.filter((r) => r.provider === 'openai-models').length).toBeGreaterThanOrEqual(4)
})

test('a local model whose window nobody told says so in the header, and the link leads to Models', async ({
  page,
  distill
}) => {
  await page.goto(distill.url)
  await openNewChat(page)
  await pickModel(page, 'llama3.2', /^llama3\.2:latest · window unknown/)
  const unknown = page.getByRole('button', { name: 'window unknown — set it' })
  await expect(unknown).toBeVisible()
  await snap(page, 'chat-window-unknown')

  // The chat's own window, set in Chat settings, is a window Distill knows: no more "set it".
  const meter = page.getByRole('meter', { name: 'Context usage' })
  await page.getByRole('button', { name: 'Chat settings' }).click()
  const settings = page.getByRole('dialog', { name: 'Chat settings' })
  const field = settings.getByRole('textbox', { name: 'Context window for this chat' })
  await field.fill('32,768')
  await field.press('Enter')
  await settings.getByRole('button', { name: 'Done' }).click()
  await expect(meter).toHaveAttribute('aria-valuemax', /^\d{5}$/)
  await expect(unknown).toBeHidden()
  // The picker names the window in use, as the meter does.
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveText(/^llama3\.2:latest · 32\.8k/)
  await meter.hover()
  await expect(page.getByRole('tooltip')).not.toContainText('does not know this model’s window')
  await snap(page, 'chat-window-set')
  // Back to the model's window: unknown again.
  await page.getByRole('button', { name: 'Chat settings' }).click()
  await field.fill('')
  await field.press('Enter')
  await settings.getByRole('button', { name: 'Done' }).click()
  await expect(unknown).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveText(/^llama3\.2:latest · window unknown/)
  await meter.hover()
  await expect(page.getByRole('tooltip')).toContainText('does not know this model’s window')
  await unknown.click()
  await expect(page.getByRole('heading', { name: 'Models', exact: true })).toBeInViewport()
})

test('with only a local server set up, a new chat uses one of its models', async ({ page, fake }) => {
  const local = await startDistill({
    env: { OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible, OPENAI_COMPATIBLE_API_KEY: 'fake-local-0004' }
  })
  try {
    await page.goto(local.url)
    await openNewChat(page)
    const picker = page.getByRole('combobox', { name: 'Model' })
    await expect(picker).toHaveText(/^fake-model/)
    await expect(page.getByRole('region', { name: 'Connect a model to start' })).toHaveCount(0)
    fake.script([{ reply: 'Hello from the local model' }])
    await send(page, 'Hi')
    await expect(page.getByRole('log', { name: 'Messages' }).getByText('Hello from the local model')).toBeVisible()
  } finally {
    await local.stop()
  }
})
