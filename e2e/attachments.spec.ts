import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'
import { samplePdf, samplePng } from '../test/support/sample-files'
import { expectAccessible, newChat, rpc } from './support/conversation'
import { expect, snap, test } from './support/fixtures'

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const png = samplePng(320, 200, [230, 120, 40])
const pdf = samplePdf(['Quarterly revenue rose 12%', 'Costs fell by a third'])
const notes = Buffer.from('TODO: ship attachments\nowner: tangerine\n')

async function attachThroughButton(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Attach files' }).click()
  await (await chooser).setFiles(files)
}

/** The files on disk under the data directory's attachments folder. */
function storedFiles(dbFile: string): string[] {
  const dir = join(dirname(dbFile), 'attachments')
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((prefix) => readdirSync(join(dir, prefix)).map((rest) => prefix + rest))
}

async function showScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme })
}

test('an image, a text file and a PDF attached with the button reach the provider as image, text and file parts', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  await newChat(page)
  await attachThroughButton(page, [
    { name: 'chart.png', mimeType: 'image/png', buffer: png },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: notes },
    { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf }
  ])
  const tray = page.getByRole('list', { name: 'Attached files' })
  await expect(tray.getByText('PDF · 2 pages')).toBeVisible()
  await expect(tray.getByText('PNG · 320×200')).toBeVisible()
  await expect(tray.getByText(/^TXT · /)).toBeVisible()
  await showScheme(page, 'light')
  await snap(page, 'attachments-composer-light')
  await expectAccessible(page)
  await page.getByRole('textbox', { name: 'Message' }).fill('What do these say?')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(tray).toBeHidden()

  const log = page.getByRole('log', { name: 'Messages' })
  await expect(log.getByText('Reply to: What do these say?', { exact: false })).toBeVisible()
  const request = fake.requests.find((r) => (r.attachments?.length ?? 0) > 0)!
  expect(request.attachments!.map((a) => [a.wire, a.mediaType, a.filename ?? null, a.sha256])).toEqual([
    ['image_url', 'image/png', null, sha(png)],
    ['file', 'application/pdf', 'report.pdf', sha(pdf)]
  ])
  expect(JSON.stringify(request.body)).toContain(
    '<attachment name=\\"notes.txt\\" type=\\"text/plain\\">\\nTODO: ship attachments'
  )

  // Shown in the chat: a thumbnail that opens a viewer, chips with type, pages and size.
  const attachments = log.getByRole('list', { name: 'Attachments' })
  await expect(attachments.getByRole('img', { name: 'chart.png' })).toBeVisible()
  await expect(attachments.getByText('report.pdf')).toBeVisible()
  await expect(attachments.getByText(/^PDF · 2 pages · /)).toBeVisible()
  await expect(attachments.getByText('notes.txt')).toBeVisible()
  await snap(page, 'attachments-message-light')
  await expectAccessible(page)
  // The meter counts the files as the provider does, in their own row.
  await page.getByRole('meter', { name: 'Context usage' }).hover()
  const popover = page.getByRole('tooltip')
  await expect(popover).toContainText('Attachments')
  await snap(page, 'attachments-meter-light')
  await page.mouse.move(10, 700)
  await expect(popover).toBeHidden()
  await showScheme(page, 'dark')
  await snap(page, 'attachments-message-dark')
  await attachments.getByRole('button', { name: 'View chart.png' }).click()
  const viewer = page.getByRole('dialog', { name: 'chart.png' })
  await expect(viewer.getByRole('img', { name: 'chart.png' })).toBeVisible()
  await expect(viewer.getByText('PNG · 320×200 · ')).toBeVisible()
  await snap(page, 'attachments-viewer-dark')
  await page.keyboard.press('Escape')
  await expect(viewer).toBeHidden()

  // Full history shows them too.
  await showScheme(page, 'light')
  await page.getByRole('button', { name: 'View full history' }).click()
  const history = page.getByRole('dialog', { name: /history/i })
  await expect(history.getByRole('img', { name: 'chart.png' })).toBeVisible()
  await expect(history.getByText(/^PDF · 2 pages · /)).toBeVisible()
  await snap(page, 'attachments-history-light')
})

test('a pasted image and a dropped PDF go to Anthropic as image and document blocks', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'anthropic', modelId: 'claude-haiku-4-5' })
  await page.reload()

  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.evaluate(
    (el, bytes) => {
      const data = new DataTransfer()
      data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }))
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
    },
    [...png]
  )
  const tray = page.getByRole('list', { name: 'Attached files' })
  await expect(tray.getByText(/^Pasted image .*\.png$/)).toBeVisible()

  await page.getByRole('region', { name: 'Chat' }).evaluate(
    (el, bytes) => {
      const data = new DataTransfer()
      data.items.add(new File([new Uint8Array(bytes)], 'dropped.pdf', { type: 'application/pdf' }))
      for (const type of ['dragenter', 'dragover', 'drop'])
        el.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }))
    },
    [...pdf]
  )
  await expect(tray.getByText('dropped.pdf')).toBeVisible()
  await expect(tray.getByText(/^PDF · 2 pages/)).toBeVisible()

  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('log', { name: 'Messages' }).getByRole('img', { name: /^Pasted image/ })).toBeVisible()
  await expect
    .poll(() =>
      fake.requests
        .find((r) => (r.attachments?.length ?? 0) > 0)
        ?.attachments?.map((a) => [a.wire, a.mediaType, a.sha256])
    )
    .toEqual([
      ['image', 'image/png', sha(png)],
      ['document', 'application/pdf', sha(pdf)]
    ])
})

test('the composer refuses what the chat cannot take: an image for a text-only model, and files of other types', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai', modelId: 'gpt-3.5-turbo' })
  await page.reload()
  const tray = page.getByRole('list', { name: 'Attached files' })

  // Refused when attached, before it is uploaded: the sentence names models that can see.
  await attachThroughButton(page, [{ name: 'chart.png', mimeType: 'image/png', buffer: png }])
  await expect(
    page.getByText('“chart.png” is an image. GPT-3.5 Turbo cannot see images. Choose a model that can, such as GPT-5', {
      exact: false
    })
  ).toBeVisible()
  await expect(tray).toBeHidden()
  await showScheme(page, 'light')
  await snap(page, 'attachments-refused-image-light')
  await showScheme(page, 'dark')
  await snap(page, 'attachments-refused-image-dark')
  await showScheme(page, 'light')

  // Files of types Distill does not take are refused when attached, with a sentence each.
  await attachThroughButton(page, [
    { name: 'song.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from([1, 2, 3]) },
    { name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ\x90\x00binary') },
    { name: 'backup.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\x03\x04zip') }
  ])
  for (const name of ['song.mp3', 'setup.exe', 'backup.zip']) {
    await expect(
      page.getByText(
        `“${name}” can’t be attached. Distill takes images (PNG, JPEG, WebP, GIF), PDFs, and text or code files.`
      )
    ).toBeVisible()
  }
  // A binary file under a text name is found out by its bytes.
  await attachThroughButton(page, [
    { name: 'data.txt', mimeType: 'text/plain', buffer: Buffer.from([0x50, 0x00, 0xff, 0x13, 0x00]) }
  ])
  await expect(
    page.getByText(
      '“data.txt” holds binary data, not text. Distill takes images (PNG, JPEG, WebP, GIF), PDFs, and text or code files.'
    )
  ).toBeVisible()
  await expect(tray).toBeHidden()
  await snap(page, 'attachments-refused-types-light')

  // A model changed after the image was attached: the send is refused, nothing is written, the draft stays.
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai', modelId: 'gpt-4o-mini' })
  await page.reload()
  await attachThroughButton(page, [{ name: 'chart.png', mimeType: 'image/png', buffer: png }])
  await expect(tray.getByText('chart.png')).toBeVisible()
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai', modelId: 'gpt-3.5-turbo' })
  await page.getByRole('textbox', { name: 'Message' }).fill('What is in this picture?')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Not sent' })).toContainText(
    'GPT-3.5 Turbo cannot see images. Choose a model that can, such as GPT-5'
  )
  expect(fake.requests.filter((r) => r.provider === 'openai-chat')).toEqual([])
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('What is in this picture?')
  await expect(tray.getByText('chart.png')).toBeVisible()
  await snap(page, 'attachments-refused-light')
})

test('a chat exported as JSON with an image and a text file comes back whole after it was deleted', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.rename', { id: sessionId, title: 'Launch files' })
  await attachThroughButton(page, [
    { name: 'chart.png', mimeType: 'image/png', buffer: png },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: notes }
  ])
  await expect(page.getByRole('list', { name: 'Attached files' }).getByText('PNG · 320×200')).toBeVisible()
  await page.getByRole('textbox', { name: 'Message' }).fill('Keep these files')
  await page.getByRole('button', { name: 'Send' }).click()
  const log = page.getByRole('log', { name: 'Messages' })
  await expect(log.getByText('Reply to: Keep these files')).toBeVisible()

  await page.getByRole('button', { name: 'More actions' }).click()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export as JSON' }).click()
  ])
  const exported = (await download.path())!
  const data = JSON.parse(readFileSync(exported, 'utf8')) as { attachments: { hash: string; data: string }[] }
  expect(data.attachments.map((a) => a.hash).sort()).toEqual([sha(png), sha(notes)].sort())

  const item = page.getByRole('navigation', { name: 'Chats' }).getByRole('listitem').filter({ hasText: 'Launch files' })
  await item.hover()
  await item.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('alertdialog', { name: 'Delete chat?' }).getByRole('button', { name: 'Delete' }).click()
  await expect(item).toBeHidden()
  await expect.poll(() => storedFiles(distill.dbFile)).toEqual([])

  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Import chat' }).click()
  await (await chooser).setFiles(exported)
  await expect(page.getByText('Imported “Launch files”')).toBeVisible()
  await expect(page.getByText('2 messages, 2 files')).toBeVisible()
  await expect(log.getByRole('img', { name: 'chart.png' })).toBeVisible()
  await expect(log.getByRole('list', { name: 'Attachments' }).getByText('notes.txt')).toBeVisible()
  expect(storedFiles(distill.dbFile).sort()).toEqual([sha(png), sha(notes)].sort())
  await snap(page, 'attachments-imported-light')

  // The same file a second time says so, and imports nothing.
  const twice = page.waitForEvent('filechooser')
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Import chat' }).click()
  await (await twice).setFiles(exported)
  await expect(
    page.getByText(/This chat was already imported on .* as "Launch files" \(.*\)\. Nothing was imported\./)
  ).toBeVisible()
  await expect(
    page.getByRole('navigation', { name: 'Chats' }).getByRole('listitem').filter({ hasText: 'Launch files' })
  ).toHaveCount(1)

  // The provider receives them again with the next message: the bytes are the ones exported.
  fake.reset()
  await page.getByRole('textbox', { name: 'Message' }).fill('Are they still there?')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(log.getByText('Reply to: Are they still there?')).toBeVisible()
  const request = fake.requests.find((r) => (r.attachments?.length ?? 0) > 0)!
  expect(request.attachments!.map((a) => [a.wire, a.sha256])).toEqual([['image_url', sha(png)]])
  expect(JSON.stringify(request.body)).toContain(
    '<attachment name=\\"notes.txt\\" type=\\"text/plain\\">\\nTODO: ship attachments'
  )

  // A damaged export is refused with a sentence, and nothing is imported.
  data.attachments[0]!.data = Buffer.from('not the picture').toString('base64')
  const damaged = join(dirname(distill.dbFile), 'damaged.distill.json')
  writeFileSync(damaged, JSON.stringify(data))
  const again = page.waitForEvent('filechooser')
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Import chat' }).click()
  await (await again).setFiles(damaged)
  await expect(
    page.getByText(/does not match its checksum: it was damaged or changed\. Nothing was imported\./)
  ).toBeVisible()
  await expect(
    page.getByRole('navigation', { name: 'Chats' }).getByRole('listitem').filter({ hasText: 'Launch files' })
  ).toHaveCount(1)
})

test('deleting the chat frees its files in the data directory', async ({ page, distill }) => {
  await page.goto(distill.url)
  await newChat(page)
  await attachThroughButton(page, [
    { name: 'chart.png', mimeType: 'image/png', buffer: png },
    { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf }
  ])
  await expect(page.getByRole('list', { name: 'Attached files' }).getByText('PDF · 2 pages')).toBeVisible()
  await page.getByRole('textbox', { name: 'Message' }).fill('Keep these')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('log', { name: 'Messages' }).getByText('Reply to: Keep these')).toBeVisible()
  expect(storedFiles(distill.dbFile).sort()).toEqual([sha(png), sha(pdf)].sort())

  const item = page.getByRole('navigation', { name: 'Chats' }).getByRole('listitem').filter({ hasText: 'Keep these' })
  await item.hover()
  await item.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('alertdialog', { name: 'Delete chat?' }).getByRole('button', { name: 'Delete' }).click()
  await expect(item).toBeHidden()
  await expect.poll(() => storedFiles(distill.dbFile)).toEqual([])
})

test('after a summary the attachments are listed as having left the context, and one can be attached again', async ({
  page,
  distill,
  fake
}) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await attachThroughButton(page, [
    { name: 'chart.png', mimeType: 'image/png', buffer: png },
    { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf }
  ])
  await expect(page.getByRole('list', { name: 'Attached files' }).getByText('PDF · 2 pages')).toBeVisible()
  await page.getByRole('textbox', { name: 'Message' }).fill('Here are the figures')
  await page.getByRole('button', { name: 'Send' }).click()
  const log = page.getByRole('log', { name: 'Messages' })
  await expect(log.getByText('Reply to: Here are the figures')).toBeVisible()

  await rpc(page, 'compression.run', { sessionId, summarizer: 'extractive' })
  await expect(
    page.getByRole('separator', { name: 'Active context starts here · 2 attachments left the active context' })
  ).toBeAttached()
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByText('2 attachments left the active context')).toBeVisible()
  await summary.getByRole('button', { name: /Summary/ }).click()
  const manifest = summary.getByRole('region', { name: 'Attachments that left the active context' })
  await expect(manifest.getByText('report.pdf')).toBeVisible()
  await expect(manifest.getByText(/Message 1, from you, /).first()).toBeVisible()
  // One line of what each file was, made without a model: an image's size and the words sent with it, a PDF's first line.
  await expect(manifest.getByText('320×200 image, sent with “Here are the figures”')).toBeVisible()
  await expect(manifest.getByText('Quarterly revenue rose 12%')).toBeVisible()
  await snap(page, 'attachments-manifest-light')
  await expectAccessible(page)
  await page.emulateMedia({ colorScheme: 'dark' })
  await snap(page, 'attachments-manifest-dark')
  await page.emulateMedia({ colorScheme: 'light' })

  await manifest.getByRole('button', { name: 'Attach again: chart.png' }).click()
  const tray = page.getByRole('list', { name: 'Attached files' })
  await expect(tray.getByText('chart.png')).toBeVisible()
  fake.reset()
  await page.getByRole('textbox', { name: 'Message' }).fill('Look at the chart again')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(log.getByText('Reply to: Look at the chart again')).toBeVisible()
  const request = fake.requests.find((r) => r.attachments !== undefined)!
  expect(request.attachments!.map((a) => [a.wire, a.sha256])).toEqual([['image_url', sha(png)]])
  expect(JSON.stringify(request.body)).toContain('Attachments in the summarized messages')
  expect(JSON.stringify(request.body)).toMatch(
    /- report\.pdf \(PDF, 2 pages, [^)]+\), attached by the user in message 1 on [\d-]+: Quarterly revenue rose 12%/
  )
})

test('a model added in Settings can be marked as taking no images, and the composer then refuses one', async ({
  page,
  distill
}) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Add model' }).click()
  const row = page.getByRole('group', { name: 'Custom model 1' })
  await row.getByRole('combobox', { name: 'Provider' }).selectOption({ label: 'Local / OpenAI-compatible' })
  // Its name says vision; the user knows better.
  await row.getByRole('textbox', { name: 'Model ID' }).fill('llava-house')
  await row.getByRole('textbox', { name: 'Context window' }).fill('8192')
  await row.getByRole('textbox', { name: 'Max output' }).fill('1024')
  await expect(row.getByRole('combobox', { name: 'Takes images' })).toHaveValue('guess')
  await row.getByRole('combobox', { name: 'Takes images' }).selectOption({ label: 'No' })
  await row.scrollIntoViewIfNeeded()
  await showScheme(page, 'light')
  await snap(page, 'attachments-settings-vision-light')
  await showScheme(page, 'dark')
  await snap(page, 'attachments-settings-vision-dark')
  await showScheme(page, 'light')
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()
  const saved = await rpc<{ customModels: { id: string; vision?: boolean }[] }>(page, 'settings.get', {})
  expect(saved.customModels).toEqual([expect.objectContaining({ id: 'llava-house', vision: false })])

  await page.getByRole('button', { name: 'Back to chat' }).click()
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai-compatible', modelId: 'llava-house' })
  await page.reload()
  await attachThroughButton(page, [{ name: 'chart.png', mimeType: 'image/png', buffer: png }])
  await expect(
    page.getByText('“chart.png” is an image. llava-house cannot see images. Choose a model that can, such as', {
      exact: false
    })
  ).toBeVisible()
  await expect(page.getByRole('list', { name: 'Attached files' })).toBeHidden()
  // Text files still go.
  await attachThroughButton(page, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: notes }])
  await expect(page.getByRole('list', { name: 'Attached files' }).getByText('notes.txt')).toBeVisible()
})
