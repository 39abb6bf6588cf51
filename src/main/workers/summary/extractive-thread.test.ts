import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/client'
import { appendMessage } from '../../db/repositories/messages/messages-repo'
import { insertSession } from '../../db/repositories/sessions-repo'
import { CATALOG } from '../../models/catalog'
import type { EngineMessage } from '../../engine/types'
import { runExtractiveJob } from './extractive-job'
import { createExtractiveThread, type ExtractiveInput, type ExtractiveThread } from './extractive-thread'
import { runStrategyJob } from './strategy-job'
import { runDetailsJob } from './details-job'
import { DETAILS_HEADING } from '../../engine/summary-details'

const spec = CATALOG.find((m) => m.provider === 'openai' && m.id === 'gpt-4o')!

const textOf = (i: number) =>
  `On day ${(i % 28) + 1} we moved ${i * 7} pallets to zone ${i % 97}. Maria said dock door ${i % 5} sticks again.`

function job(n: number): ExtractiveInput {
  return {
    spec,
    request: {
      messages: Array.from({ length: n }, (_, i) => ({
        id: `m${i}`,
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        text: textOf(i),
        createdAt: i * 60_000
      })),
      targetTokens: 400
    }
  }
}
/** The same job as an inline run sees it. */
const inline = (input: ExtractiveInput) =>
  runExtractiveJob({
    ...input,
    request: {
      ...input.request,
      messages: input.request.messages.map((m) => ({ role: m.role, text: m.text, createdAt: m.createdAt }))
    }
  })

let thread: ExtractiveThread | undefined
afterEach(async () => {
  await thread?.close()
  thread = undefined
})

describe('extractive summaries on a worker thread', () => {
  it('ends an idle thread, so its memory goes back, and starts a fresh one for the next summary', async () => {
    const warnings: string[] = []
    thread = createExtractiveThread({ warn: (m) => warnings.push(m), idleMs: 50 })
    const first = await thread.summarize(job(200))
    expect(thread.threaded).toBe(true)
    await expect.poll(() => thread!.threaded, { timeout: 5_000 }).toBe(false)
    expect(await thread.summarize(job(200))).toBe(first)
    expect(thread.threaded).toBe(true)
    expect(warnings).toEqual([])
  })

  it('writes the same summary as an inline run, while the main thread keeps turning', async () => {
    const warnings: string[] = []
    thread = createExtractiveThread({ warn: (m) => warnings.push(m) })
    const big = job(3000)
    let turns = 0
    const ticker = setInterval(() => turns++, 1)
    const text = await thread.summarize(big)
    clearInterval(ticker)
    expect(warnings).toEqual([])
    expect(thread.threaded).toBe(true)
    expect(text).toBe(inline(big))
    expect(text).toContain('pallets')
    // An inline run of this size holds the event loop for its whole length: no timer could fire.
    expect(turns).toBeGreaterThan(0)
  })

  it('a job that runs out of room on the thread runs again on a thread with room, not on the main thread', async () => {
    const warnings: string[] = []
    thread = createExtractiveThread({ warn: (m) => warnings.push(m), heapMb: 4 })
    const big = job(3000)
    expect(await thread.summarize(big)).toBe(inline(big))
    expect(warnings).toEqual([])
    expect(thread.threaded).toBe(true)
  })

  it('a cancelled summary rejects at once, and the next one runs on a fresh thread', async () => {
    thread = createExtractiveThread({ warn: () => {} })
    const controller = new AbortController()
    const running = thread.summarize(job(20_000), controller.signal)
    setTimeout(() => controller.abort(), 20)
    await expect(running).rejects.toMatchObject({ name: 'AbortError' })
    const small = job(20)
    expect(await thread.summarize(small)).toBe(inline(small))
  })

  it('a summary waiting behind a cancelled one on the same thread still gets written', async () => {
    const warnings: string[] = []
    thread = createExtractiveThread({ warn: (m) => warnings.push(m) })
    const controller = new AbortController()
    const cancelled = thread.summarize(job(20_000), controller.signal)
    const waiting = thread.summarize(job(30))
    setTimeout(() => controller.abort(), 20)
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' })
    expect(await waiting).toBe(inline(job(30)))
    expect(warnings).toEqual([])
  })

  it('an already cancelled signal writes nothing', async () => {
    thread = createExtractiveThread({ warn: () => {} })
    const controller = new AbortController()
    controller.abort()
    await expect(thread.summarize(job(5), controller.signal)).rejects.toMatchObject({ name: 'AbortError' })
  })

  it("reads the span from the database on the thread: the main thread never loads the messages' text", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distill-thread-'))
    const handle = openDatabase(join(dir, 'chats.db'))
    try {
      const sessionId = 's1'
      insertSession(handle.db, { id: sessionId, title: 'Warehouse', createdAt: 0, updatedAt: 0 })
      const input = job(500)
      handle.db.transaction((tx) => {
        input.request.messages.forEach((m, i) =>
          appendMessage(tx, {
            id: m.id,
            sessionId,
            role: m.role as 'user' | 'assistant',
            parts: [{ type: 'text', text: textOf(i) }],
            status: 'complete',
            createdAt: i * 60_000
          })
        )
      })
      const expected = inline(input)
      const untouched: ExtractiveInput = {
        ...input,
        request: {
          ...input.request,
          messages: input.request.messages.map((m) => ({
            id: m.id,
            role: m.role,
            createdAt: m.createdAt,
            get text(): string {
              throw new Error('the main thread read a message text')
            }
          }))
        }
      }
      const warnings: string[] = []
      thread = createExtractiveThread({ warn: (m) => warnings.push(m), dbFile: handle.file })
      expect(await thread.summarize(untouched)).toBe(expected)
      expect(warnings).toEqual([])
    } finally {
      await thread?.close()
      handle.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('runs the strategies and the Details check on the thread from the stored texts, with the same result as an inline run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'distill-thread-'))
    const handle = openDatabase(join(dir, 'chats.db'))
    try {
      const sessionId = 's1'
      insertSession(handle.db, { id: sessionId, title: 'Warehouse', createdAt: 0, updatedAt: 0 })
      const messages: EngineMessage[] = Array.from({ length: 1500 }, (_, i) => ({
        id: `m${i}`,
        seq: i + 1,
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        text: textOf(i),
        tokens: 30,
        createdAt: i * 60_000
      }))
      handle.db.transaction((tx) => {
        messages.forEach((m, i) =>
          appendMessage(tx, {
            id: m.id,
            sessionId,
            role: m.role as 'user' | 'assistant',
            parts: [{ type: 'text', text: textOf(i) }],
            status: 'complete',
            createdAt: m.createdAt
          })
        )
      })
      // The main thread hands over heads only: reading a text here would throw.
      const heads = messages.map((m) => ({
        ...m,
        get text(): string {
          throw new Error('the main thread read a message text')
        }
      }))
      const warnings: string[] = []
      thread = createExtractiveThread({ warn: (m) => warnings.push(m), dbFile: handle.file })
      // A model summary that left every number out gets them back as Details, checked on the thread.
      const summary = 'The team moved pallets between zones all month.'
      const details = await thread.details({ spec, summary, targetTokens: 300, messages: heads.slice(0, 40) })
      expect(details).toBe(runDetailsJob({ spec, summary, targetTokens: 300, messages: messages.slice(0, 40) }))
      expect(details).toContain(DETAILS_HEADING)
      for (const strategy of ['tiered', 'importance'] as const) {
        const ask = { spec, strategy, historyTokens: 3000, retentionTokens: 600, userBoundaries: ['m700'] }
        const outcome = await thread.strategy({ ...ask, messages: heads })
        expect(outcome).toEqual(runStrategyJob({ ...ask, messages }))
        expect(outcome.cutoffIndex).toBeGreaterThan(0)
        expect(outcome.summaryText).toContain('pallets')
      }
      expect(warnings).toEqual([])
    } finally {
      await thread?.close()
      handle.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
