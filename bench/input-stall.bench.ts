// The longest event-loop stall while hostile input goes in, through the router as the window sends
// it, while a 1 ms timer measures how late it fires: messages up to 5 MB (one letter, letters without
// spaces, emoji with combining marks, nested Markdown and brackets, one huge line of words, a million
// tiny lines), 5 MB attachments (text of one letter, of random letters, of short lines; a PDF), and
// imports (a 40 MB Distill export through "Import chat", a 40 MB ChatGPT export as `distill import`
// reads it). Every input is made before its measurement starts. The naive path (the encoder run on
// the whole text at once, as Distill counted before) is measured in the same run on a tenth of a
// run of one letter: it is quadratic, so the full size would take minutes. `npm run bench`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GptEncoding } from 'gpt-tokenizer/GptEncoding'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../e2e/fake-provider'
import { createApp, type App } from '../src/main/app'
import { assertImportSize, importChats } from '../src/main/services/imports/import-chats'
import { readChatGPTExport } from '../src/main/cli/read-chatgpt-export'
import { silentLogger } from '../src/main/logger'
import { MAX_MESSAGE_CHARS } from '../src/shared/domain/chat-message'
import { samplePdf } from '../test/support/sample-files'
import { goalLine } from './goal'
import { exportMessages } from './export-messages'
import { watchLoop } from './loop-probe'

/** Letters in no order a tokenizer has merges for (a fixed-seed generator, so each run measures the same text). */
function randomLetters(n: number): string {
  let seed = 42
  return Array.from({ length: n }, () =>
    String.fromCharCode(97 + (((seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 16) % 26))
  ).join('')
}
const fill = (unit: string, chars: number) => unit.repeat(Math.floor(chars / unit.length))
const MB5 = 5 * 1024 * 1024

/** The hostile messages, each at the longest length a message may have (the first is refused). */
const MESSAGES: ReadonlyArray<readonly [label: string, text: () => string]> = [
  ['5 MB message of one letter (refused: too long)', () => 'b'.repeat(5_000_000)],
  ['200,000 × "b"', () => 'b'.repeat(200_000)],
  ['200,000 letters without a space', () => randomLetters(200_000)],
  ['1,000,000 × "b" (the longest message taken)', () => 'b'.repeat(MAX_MESSAGE_CHARS)],
  ['1,000,000 letters without a space', () => randomLetters(MAX_MESSAGE_CHARS)],
  ['1,000,000 of emoji and combining marks', () => fill('👍🏽e\u0301\u0308🇫🇷', MAX_MESSAGE_CHARS)],
  [
    '1,000,000 of nested Markdown and brackets',
    () => fill('> ', 2000) + fill('[', 249_000) + fill('(*_`', 500_000) + fill(')', 249_000)
  ],
  ['one line of 1,000,000 characters of words', () => fill('lorem ipsum dolor sit amet ', MAX_MESSAGE_CHARS)],
  ['500,000 tiny lines', () => fill('a\n', MAX_MESSAGE_CHARS)]
]

/** The attachments: a name, a media type and the file's base64, as the composer uploads them. */
const FILES: ReadonlyArray<readonly [label: string, name: string, type: string, bytes: () => Buffer]> = [
  ['5 MB text of "A"', 'a.txt', 'text/plain', () => Buffer.from('A'.repeat(MB5 - 16))],
  ['5 MB text of random letters', 'r.txt', 'text/plain', () => Buffer.from(randomLetters(MB5 - 16))],
  ['5 MB text of 1.7 M short lines', 'l.txt', 'text/plain', () => Buffer.from(fill('ab\n', MB5 - 16))],
  [
    'PDF of 2,000 pages',
    'p.pdf',
    'application/pdf',
    () => samplePdf(Array.from({ length: 2000 }, (_, i) => `Page ${i} ${'word '.repeat(300)}`))
  ]
]

/** A Distill export of ~40 MB: 13,000 messages of ~3 KB, as `sessions.import` receives it. */
function distillExport(): string {
  const messages = exportMessages(13_000, 24)
  const session = { id: 's', title: 'Big', systemPrompt: null, provider: 'openai', modelId: 'gpt-4o' }
  const body = { format: 'distill-chat', version: 1, exportedAt: '2026-11-25T00:00:00.000Z', messages, snapshots: [] }
  return JSON.stringify({
    ...body,
    session: { ...session, strategy: null, autoCompress: null, createdAt: 1, updatedAt: 1 }
  })
}

/** A ChatGPT conversations.json of ~40 MB: 40 conversations of 400 messages of ~2.5 KB. */
function chatGPTExport(): string {
  return JSON.stringify(
    Array.from({ length: 40 }, (_, c) => {
      const mapping: Record<string, unknown> = {}
      let parent: string | null = null
      for (let i = 0; i < 400; i++) {
        const id = `c${c}n${i}`
        const text = `Message ${i} of chat ${c}: ${'the shipment left the depot on time and arrived at dock four. '.repeat(40)}`
        mapping[id] = {
          parent,
          message: {
            author: { role: i % 2 ? 'assistant' : 'user' },
            content: { content_type: 'text', parts: [text] },
            create_time: 1_767_000_000 + c * 1000 + i
          }
        }
        parent = id
      }
      return { title: `Chat ${c}`, create_time: 1_767_000_000 + c, mapping, current_node: parent }
    })
  )
}

const once = { time: 0, iterations: 1, warmupIterations: 0, warmupTime: 0 }
const stalls = new Map<string, number>()
let floor = NaN

let fake: FakeProvider
let app: App
let dir: string

beforeAll(async () => {
  fake = await startFakeProvider()
  dir = mkdtempSync(join(tmpdir(), 'distill-stall-bench-'))
  app = createApp({
    dbFile: join(dir, 'bench.db'),
    mode: 'browser',
    log: silentLogger,
    env: { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.baseURLs.openai }
  })
}, 60_000)

/** Runs `work` while a 1 ms timer measures the event loop; resolves with the longest delay seen. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  await new Promise((r) => setTimeout(r, 50)) // what the previous input left behind settles first
  const stop = watchLoop()
  await work()
  await new Promise((r) => setTimeout(r, 50))
  return stop()
}

async function call(route: string, input: unknown): Promise<unknown> {
  const r = await app.router.call(route, input)
  if (!r.ok) throw new Error(`${route}: ${r.error.message}`)
  return r.data
}

/** Sends `text` in a new chat and waits for the reply; a refusal is measured all the same. */
async function send(text: string, attachments: unknown[] = []): Promise<void> {
  const session = (await call('sessions.create', {})) as { id: string }
  fake.script([{ reply: 'ok' }])
  await app.router.call('chat.send', { sessionId: session.id, text, attachments })
  await app.services.chat.idle()
  await app.services.titles.idle()
}

async function uploadAndSend(filename: string, mediaType: string, data: string): Promise<void> {
  const part = (await call('attachments.upload', { filename, mediaType, data })) as { hash: string; filename: string }
  await send('What is in this file?', [{ hash: part.hash, filename: part.filename }])
}

describe('event-loop stall while pathological messages, attachments and imports go in', () => {
  bench(
    'naive: one encoder call on a 100,000-character run',
    async () => {
      const load = createRequire(import.meta.url)
      const { GptEncoding: Gpt } = load('gpt-tokenizer/GptEncoding') as { GptEncoding: typeof GptEncoding }
      const api = Gpt.getEncodingApi(
        'o200k_base',
        () => (load('gpt-tokenizer/bpeRanks/o200k_base') as { default: never }).default
      )
      const text = 'b'.repeat(MAX_MESSAGE_CHARS / 10)
      stalls.set('naive', await longestStall(async () => api.countTokens(text)))
    },
    once
  )
  bench(
    'distill: each hostile input through the router',
    async () => {
      // The first reply and upload load the provider's and the PDF reader's modules: not what is measured.
      await send('hello')
      await uploadAndSend('w.pdf', 'application/pdf', samplePdf(['warm up']).toString('base64'))
      // What the machine alone does to a timer meanwhile (other processes, the scheduler): the floor.
      floor = await longestStall(() => new Promise((r) => setTimeout(r, 2000)))
      for (const [label, make] of MESSAGES) {
        const text = make()
        stalls.set(label, await longestStall(() => send(text)))
      }
      for (const [label, name, type, bytes] of FILES) {
        const data = bytes().toString('base64')
        stalls.set(label, await longestStall(() => uploadAndSend(name, type, data)))
      }
      const exported = distillExport()
      stalls.set(
        `Import chat: a ${(exported.length / 1e6).toFixed(0)} MB Distill export`,
        await longestStall(() => call('sessions.import', { text: exported }))
      )
      const file = join(dir, 'conversations.json')
      const chatgpt = chatGPTExport()
      writeFileSync(file, chatgpt)
      stalls.set(
        `distill import: a ${(chatgpt.length / 1e6).toFixed(0)} MB ChatGPT export`,
        await longestStall(async () => {
          let count = 0
          for await (const conv of readChatGPTExport(file)) assertImportSize(conv, count++, Infinity)
          await importChats(app, readChatGPTExport(file), { source: 'conversations.json', count })
        })
      )
    },
    once
  )
})

afterAll(async () => {
  await app.close()
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
  const figures = [...stalls].filter(([k]) => k !== 'naive')
  const width = Math.max(...figures.map(([k]) => k.length)) + 2
  const row = (label: string, ms: number | undefined) =>
    `  ${label.padEnd(width)} ${`${(ms ?? NaN).toFixed(0)} ms`.padStart(8)}`
  console.log(
    [
      '',
      'Longest event-loop stall',
      row('naive, one encoder call on a 100,000-character run', stalls.get('naive')),
      row("nothing at all for 2 s (the machine's floor)", floor),
      ...figures.map(([label, ms]) => row(label, ms)),
      goalLine('longest stall per input', 50, figures),
      ''
    ].join('\n')
  )
}, 60_000)
