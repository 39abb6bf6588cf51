// Time from Send to the reply's first streamed token when the message pushes the chat past the
// threshold and the summary is written by a model that takes 5 s (the fake provider, on 127.0.0.1).
// "Waiting" is the path every send took before: compress, then ask for the reply. "Distill" sends
// at once with a quick offline summary and lets the model's replace it in the background. Both are
// compared with a send that needs no compression, in the same run. `npm run bench`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../e2e/fake-provider'
import { createApp, type App } from '../src/main/app'
import { insertImportedMessages } from '../src/main/db/repositories/imports-repo'
import { appendMessage } from '../src/main/db/repositories/messages/messages-repo'
import { silentLogger } from '../src/main/logger'
import { countMessage } from '../src/main/tokens/message-tokens'
import { isMeasuring, warmedUp } from './measured'

const SUMMARY_MS = 5_000
const few = warmedUp({ time: 0, iterations: 3, warmupIterations: 0, warmupTime: 0 })
// Waiting for the model is its 5 s and little else (runs differ by about 1%): one run says it.
const once = { ...few, iterations: 1 }
// A first send loads the provider's modules, a first quick summary the summarizer's: one run first, unmeasured.
const warmed = { ...few, warmupIterations: 1 }
const timings = new Map<string, number[]>()
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

let fake: FakeProvider
let app: App
let dir: string

beforeAll(async () => {
  fake = await startFakeProvider()
  dir = mkdtempSync(join(tmpdir(), 'distill-send-bench-'))
  app = createApp({
    dbFile: join(dir, 'bench.db'),
    mode: 'browser',
    log: silentLogger,
    env: { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: fake.baseURLs.openai }
  })
  app.services.settings.update({
    customModels: [
      { provider: 'openai', id: 'chat-8k', contextWindow: 8192, maxOutput: 1024 },
      { provider: 'openai', id: 'summarizer-32k', contextWindow: 32_768, maxOutput: 4096 }
    ],
    summarizationModel: 'summarizer-32k',
    summarizer: 'llm'
  })
}, 60_000)

/**
 * A chat of `turns` stored turns (counted as the app counts them), on the 8k model, written as
 * `distill import` writes a chat (appending 10,000 messages one by one takes longer than the send).
 */
function chat(turns: number): string {
  const session = app.services.sessions.create('bench')
  app.services.sessions.update(session.id, { provider: 'openai', modelId: 'chat-8k' })
  const spec = app.services.models.spec('openai', 'chat-8k')
  app.database.db.transaction((tx) =>
    insertImportedMessages(
      tx,
      session.id,
      (function* () {
        for (let i = 0; i < turns * 2; i++) {
          const parts = [
            {
              type: 'text' as const,
              text: `Turn ${i}: the warehouse in zone ${i} keeps ${i * 7} pallets of item ${i * 13}. `.repeat(6)
            }
          ]
          const role = i % 2 ? ('assistant' as const) : ('user' as const)
          const counted = countMessage({ role, parts }, spec)
          yield {
            id: `${session.id}-${i}`,
            role,
            parts,
            createdAt: i,
            tokenCount: counted.tokens,
            tokenCounter: counted.counter
          }
        }
      })()
    )
  )
  return session.id
}

/** Sends and resolves with the milliseconds to the reply's first streamed token. */
function firstToken(sessionId: string, before?: () => Promise<unknown>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const off = app.events.subscribe((e) => {
      if (e.event === 'chat.delta' && (e.payload as { sessionId: string }).sessionId === sessionId) {
        off()
        resolve(performance.now() - started)
      }
    })
    void (async () => {
      await before?.()
      app.services.chat.send(sessionId, 'And how many pallets are in zone 3?')
    })().catch(reject)
  })
}

const slowSummary = () => ({
  for: 'summary' as const,
  chunks: Array.from({ length: 10 }, (_, i) => `Summary part ${i}. `),
  delayMs: SUMMARY_MS / 10
})

/**
 * A long chat as it usually stands: `turns` stored turns summarized once (the quick summary), then
 * newer turns until its next send passes the threshold while still fitting the window.
 */
async function dueChat(turns: number): Promise<string> {
  const sessionId = chat(turns)
  await app.services.compression.run(sessionId, { summarizer: 'extractive', retentionOverride: 1000 })
  const spec = app.services.models.spec('openai', 'chat-8k')
  const question = app.services.usage.countText(
    app.services.sessions.get(sessionId),
    'And how many pallets are in zone 3?'
  )
  for (let i = 0; ; i++) {
    const usage = app.services.next.meter(sessionId)
    if (usage.tokens > usage.budget.threshold && usage.tokens + question <= usage.budget.usable) break
    const parts = [{ type: 'text' as const, text: `Later turn ${i}: zone ${i} was restocked with ${i * 3} pallets.` }]
    const role = i % 2 ? ('assistant' as const) : ('user' as const)
    const counted = countMessage({ role, parts }, spec)
    appendMessage(app.database.db, {
      id: `${sessionId}-later-${i}`,
      sessionId,
      role,
      parts,
      status: 'complete',
      createdAt: turns * 2 + i,
      tokenCount: counted.tokens,
      tokenCounter: counted.counter
    })
  }
  return sessionId
}

async function measure(label: string, turns: number, waiting: boolean, due = false): Promise<void> {
  const sessionId = due ? await dueChat(turns) : chat(turns)
  fake.script([slowSummary(), { reply: 'There are 21 pallets in zone 3.' }])
  const last = app.services.chat.messages(sessionId).at(-1)!
  const ms = await firstToken(
    sessionId,
    // What a send did before: the summary first (the same call, waiting for the model).
    waiting ? () => app.services.compression.beforeRequest(sessionId, last.seq + 2, { waitForModel: true }) : undefined
  )
  if (isMeasuring()) timings.set(label, [...(timings.get(label) ?? []), ms])
  await app.services.chat.idle()
  app.services.compression.cancel(sessionId)
  await app.services.compression.backgroundSettled(sessionId)
  fake.reset()
}

describe(`send → first token, summary model takes ${SUMMARY_MS / 1000} s`, () => {
  bench('no compression due (baseline)', async () => measure('none', 4, false), warmed)
  bench('compression due, waiting for the model summary (before)', async () => measure('waiting', 45, true), once)
  bench(
    'compression due, distill: quick summary now, model summary in the background',
    async () => measure('distill', 45, false),
    warmed
  )
  // A 10,000-message chat whose next send passes the threshold but still fits: it goes out as it
  // is, and the summary is written right after it.
  bench(
    '10k chat, compression due, waiting for the model summary (before)',
    async () => measure('waiting 10k', 5_000, true, true),
    once
  )
  bench('10k chat, compression due, distill', async () => measure('distill 10k', 5_000, false, true), few)
})

afterAll(async () => {
  await app.close()
  await fake.close()
  rmSync(dir, { recursive: true, force: true })
  const m = (k: string) => median(timings.get(k) ?? [])
  const fmt = (ms: number) => `${ms.toFixed(0)} ms`
  console.log(
    [
      '',
      `Send → first streamed token (median of 3 runs, 1 for waiting; the summarization model answers in ${SUMMARY_MS / 1000} s)`,
      `  no compression due (baseline)                         ${fmt(m('none')).padStart(9)}`,
      `  compression due, waiting for the model (before)       ${fmt(m('waiting')).padStart(9)}   +${fmt(m('waiting') - m('none'))}`,
      `  compression due, distill (quick now, model later)     ${fmt(m('distill')).padStart(9)}   +${fmt(m('distill') - m('none'))}   ${(m('waiting') / m('distill')).toFixed(1)}x faster`,
      `  10k chat, compression due, waiting (before)           ${fmt(m('waiting 10k')).padStart(9)}   +${fmt(m('waiting 10k') - m('none'))}`,
      `  10k chat, compression due, distill                    ${fmt(m('distill 10k')).padStart(9)}   +${fmt(m('distill 10k') - m('none'))}`,
      `  Goal < 200 ms added over a send that needs no compression: 45 turns ${m('distill') - m('none') < 200 ? 'met' : 'NOT met'}, 10k chat ${m('distill 10k') - m('none') < 200 ? 'met' : 'NOT met'}`,
      ''
    ].join('\n')
  )
}, 60_000)
