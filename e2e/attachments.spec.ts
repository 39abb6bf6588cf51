import { createHash } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
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

test('an image, a text file and a PDF attached with the button reach the provider as image, text and file parts', async ({ page, distill, fake }) => {
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
  expect(JSON.stringify(request.body)).toContain('<attachment name=\\"notes.txt\\" type=\\"text/plain\\">\\nTODO: ship attachments')

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

test('a pasted image and a dropped PDF go to Anthropic as image and document blocks', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'anthropic', modelId: 'claude-haiku-4-5' })
  await page.reload()

  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.evaluate((el, bytes) => {
    const data = new DataTransfer()
    data.items.add(new File([new Uint8Array(bytes)], 'image.png', { type: 'image/png' }))
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
  }, [...png])
  const tray = page.getByRole('list', { name: 'Attached files' })
  await expect(tray.getByText(/^Pasted image .*\.png$/)).toBeVisible()

  await page.getByRole('region', { name: 'Chat' }).evaluate((el, bytes) => {
    const data = new DataTransfer()
    data.items.add(new File([new Uint8Array(bytes)], 'dropped.pdf', { type: 'application/pdf' }))
    for (const type of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }))
  }, [...pdf])
  await expect(tray.getByText('dropped.pdf')).toBeVisible()
  await expect(tray.getByText(/^PDF · 2 pages/)).toBeVisible()

  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('log', { name: 'Messages' }).getByRole('img', { name: /^Pasted image/ })).toBeVisible()
  await expect.poll(() => fake.requests.find((r) => (r.attachments?.length ?? 0) > 0)?.attachments?.map((a) => [a.wire, a.mediaType, a.sha256])).toEqual([
    ['image', 'image/png', sha(png)],
    ['document', 'application/pdf', sha(pdf)]
  ])
})

test('a text-only model refuses an image before sending, naming models that can see', async ({ page, distill, fake }) => {
  await page.goto(distill.url)
  const sessionId = await newChat(page)
  await rpc(page, 'sessions.update', { id: sessionId, provider: 'openai', modelId: 'gpt-3.5-turbo' })
  await page.reload()
  await attachThroughButton(page, [{ name: 'chart.png', mimeType: 'image/png', buffer: png }])
  await expect(page.getByRole('list', { name: 'Attached files' }).getByText('chart.png')).toBeVisible()
  await page.getByRole('textbox', { name: 'Message' }).fill('What is in this picture?')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Not sent' })).toContainText(
    'GPT-3.5 Turbo cannot see images. Choose a model that can, such as GPT-5'
  )
  // Nothing was sent or stored; the draft and the file are still there to change.
  expect(fake.requests.filter((r) => r.provider === 'openai-chat')).toEqual([])
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('What is in this picture?')
  await expect(page.getByRole('list', { name: 'Attached files' }).getByText('chart.png')).toBeVisible()
  await snap(page, 'attachments-refused-light')

  // A file of an unsupported type is refused when attached, with a sentence.
  await attachThroughButton(page, [{ name: 'song.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from([1, 2, 3]) }])
  await expect(page.getByText('“song.mp3” can’t be attached. Distill takes images (PNG, JPEG, WebP, GIF), PDFs, and text or code files.')).toBeVisible()
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

test('after a summary the attachments are listed as having left the context, and one can be attached again', async ({ page, distill, fake }) => {
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
  await expect(page.getByRole('separator', { name: 'Active context starts here · 2 attachments left the active context' })).toBeAttached()
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByText('2 attachments left the active context')).toBeVisible()
  await summary.getByRole('button', { name: /Summary/ }).click()
  const manifest = summary.getByRole('region', { name: 'Attachments that left the active context' })
  await expect(manifest.getByText('report.pdf')).toBeVisible()
  await expect(manifest.getByText(/^Message 1, from you, /).first()).toBeVisible()
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
})
