import type { Page } from '@playwright/test'
import { startFakeProvider } from './fake-provider'
import { openNewChat, pickModel, sendInComposer } from './support/conversation'
import { startDistill } from './support/distill-server'
import { expect, snap, test } from './support/fixtures'

/** Issue 37: new chats follow the model the user chose; embedding models are no chat models; probing is once per model. */

const EMBEDDING = ['nomic-embed-text:latest', 'text-embedding-3-small', 'mxbai-embed-large', 'all-minilm']
/** 39 models, as a well-stocked local server lists them: gpt-4o first, four embedding models among them. */
const LISTED = ['gpt-4o', 'fake-small', ...EMBEDDING, ...Array.from({ length: 33 }, (_, i) => `local-${i + 1}:7b`)]
const WINDOWS = Object.fromEntries(
  LISTED.filter((id) => !EMBEDDING.includes(id)).map((id) => [id, id === 'gpt-4o' ? 32_768 : 8192])
)

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Providers' })).toBeVisible()
}

const saveBar = (page: Page) => page.getByRole('region', { name: 'Unsaved changes' })

async function save(page: Page): Promise<void> {
  await saveBar(page).getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved').last()).toBeVisible()
  await expect(saveBar(page)).toBeHidden()
}

test('a new chat starts on the model last chosen, Settings’ default wins once set, and no embedding model is offered', async ({
  page
}) => {
  test.setTimeout(120_000)
  const local = await startFakeProvider({
    models: LISTED,
    localServer: { kind: 'ollama-model-info', windows: WINDOWS }
  })
  const env = {
    OPENAI_COMPATIBLE_BASE_URL: local.baseURLs.openaiCompatible,
    OPENAI_COMPATIBLE_API_KEY: 'fake-local-0004'
  }
  let app = await startDistill({ env })
  try {
    await page.goto(app.url)
    await openNewChat(page)
    const picker = page.getByRole('combobox', { name: 'Model' })
    await expect(picker).toHaveText('gpt-4o · 32.8k') // nothing chosen yet: the server's first chat model

    // The picker offers the chat models only.
    await picker.click()
    const list = page.getByRole('listbox', { name: 'Models' })
    await expect(list.getByRole('option', { name: 'fake-small · 8.2k · detected', exact: true })).toBeVisible()
    await expect(list.getByRole('option', { name: /local-33:7b/ })).toBeVisible()
    await expect(list.getByRole('option', { name: /embed|minilm/i })).toHaveCount(0)
    await page.getByRole('combobox', { name: 'Search models' }).fill('embed')
    await expect(list.getByText('No model matches “embed”.')).toBeVisible()
    await page.getByRole('combobox', { name: 'Search models' }).fill('fake-small')
    await page.keyboard.press('Enter')
    await expect(picker).toHaveText('fake-small · 8.2k')

    await sendInComposer(page, 'Hello, small model.')
    await sendInComposer(page, 'And a second message.')
    expect(local.requests.filter((r) => r.provider !== 'openai-models').map((r) => r.model)).toEqual([
      'fake-small',
      'fake-small'
    ])

    // The next chat starts on the model chosen, not on the server's first.
    await openNewChat(page)
    await expect(picker).toHaveText('fake-small · 8.2k')

    // Settings has no default until the user saves one, and says what new chats start on.
    await openSettings(page)
    const field = page.getByRole('combobox', { name: 'Default model for new chats' })
    await expect(field).toHaveText('Last model chosen in a chat')
    await expect(field).toHaveAccessibleDescription(/now fake-small/)
    await field.scrollIntoViewIfNeeded()
    await snap(page, 'settings-default-model-last-chosen')
    await field.click()
    await snap(page, 'settings-default-model-list')
    await expect(list.getByRole('option', { name: 'gpt-4o · 32.8k · detected', exact: true })).toBeVisible()
    await expect(list.getByRole('option', { name: /embed|minilm/i })).toHaveCount(0)
    await page.keyboard.press('Escape')
    await expect(saveBar(page)).toBeHidden()

    // Each model's window was asked once: no request repeated, none about an embedding model.
    const asked = local.probes.map((p) => `${p.method} ${p.path} ${p.body}`)
    expect(new Set(asked).size).toBe(asked.length)
    expect(local.probes.length).toBeLessThanOrEqual(LISTED.length - EMBEDDING.length + 3)
    expect(asked.filter((a) => /embed|minilm/.test(a))).toEqual([])

    // The choice survives a restart.
    await app.stop({ keepData: true })
    app = await startDistill({ dbFile: app.dbFile, env })
    await page.goto(app.url)
    await openNewChat(page)
    await expect(picker).toHaveText('fake-small · 8.2k')

    // A default saved in Settings wins over the chats' choices, which never change it.
    await openSettings(page)
    await pickModel(page, 'gpt-4o', /^gpt-4o · 32\.8k/, 'Default model for new chats')
    await expect(field).toHaveAccessibleDescription('Each chat can switch models in its header.')
    await save(page)
    await page.getByRole('button', { name: 'Back to chat' }).click()
    await openNewChat(page)
    await expect(picker).toHaveText('gpt-4o · 32.8k')
    await pickModel(page, 'local-7', /^local-7:7b · /)
    await expect(picker).toHaveText('local-7:7b · 8.2k')
    await openNewChat(page)
    await expect(picker).toHaveText('gpt-4o · 32.8k')
    await openSettings(page)
    await expect(field).toHaveAttribute('data-value', 'openai-compatible:gpt-4o')

    // Back to following the chats: the last model chosen in one.
    await field.click()
    await list.getByRole('option', { name: 'Last model chosen in a chat', exact: true }).click()
    await expect(field).toHaveAccessibleDescription(/now local-7:7b/)
    await save(page)
    await page.reload()
    await openSettings(page)
    await expect(field).toHaveText('Last model chosen in a chat')
    await page.getByRole('button', { name: 'Back to chat' }).click()
    await openNewChat(page)
    await expect(picker).toHaveText('local-7:7b · 8.2k')
  } finally {
    await app.stop()
    await local.close()
  }
})
