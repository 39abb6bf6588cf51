import { createHash } from 'node:crypto'
import { v7 as uuidv7 } from 'uuid'
import { MAX_MESSAGE_CHARS, MESSAGE_TOO_LONG, messageText, type MessagePart } from '../../../shared/domain/chat-message'
import type { Db } from '../../db/client'
import type { Services } from '../services'
import {
  findImport,
  inImportTransaction,
  insertImportedMessages,
  recordImport,
  type ImportedRow
} from '../../db/repositories/imports-repo'
import type { ImportedConversation } from '../../imports/chatgpt-export'
import { ImportError } from '../../imports/openai-messages'
import type { ModelSpec } from '../../models/catalog'
import { countMessage, countMessageAsync, type MessageCount } from '../../tokens/message-tokens'

export interface ImportChatsOptions {
  /** The file name, kept with each imported chat. */
  source: string
  /** Title of a single imported chat (a file of several keeps theirs). */
  title?: string
  /** Import conversations even when they were imported before. */
  again?: boolean
  /** While a chat's messages are counted and stored (inside its transaction). */
  onProgress?: (phase: 'writing', done: number, total: number) => void
}

export interface ImportedChat {
  id: string
  title: string
  messages: number
  systemPrompt: boolean
}

export interface SkippedChat {
  title: string
  reason: string
  /** The chat this one duplicates. */
  sessionId?: string
}

export interface ImportOutcome {
  sessions: ImportedChat[]
  skipped: SkippedChat[]
}

/** Characters a message carries: its text, and tool inputs and outputs as sent. */
function messageChars(parts: readonly MessagePart[]): number {
  let n = 0
  for (const p of parts) {
    if (p.type === 'text') n += p.text.length
    else if (p.type === 'tool-call')
      n += typeof p.input === 'string' ? p.input.length : JSON.stringify(p.input ?? null).length
    else if (p.type === 'tool-result')
      n += typeof p.output === 'string' ? p.output.length : JSON.stringify(p.output ?? null).length
  }
  return n
}

/** System messages become the chat's system prompt: they are instructions, not turns to summarize. */
function splitSystem(conv: ImportedConversation): {
  systemPrompt: string | null
  messages: ImportedConversation['messages']
} {
  const system = conv.messages
    .filter((m) => m.role === 'system')
    .map((m) => messageText(m.parts).trim())
    .filter(Boolean)
  return {
    systemPrompt: system.length ? system.join('\n\n') : null,
    messages: conv.messages.filter((m) => m.role !== 'system')
  }
}

/** Identifies a conversation by what it says (not its title or file name). */
function contentHash(systemPrompt: string | null, messages: ImportedConversation['messages']): string {
  const hash = createHash('sha256').update(JSON.stringify(systemPrompt))
  for (const m of messages) hash.update('\0').update(JSON.stringify([m.role, m.name ?? null, m.parts]))
  return hash.digest('hex')
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/**
 * Refuses a conversation with a message larger than a user may send. Callers check every
 * conversation of a file before writing any, so the whole file is refused.
 */
export function assertImportSize(conv: ImportedConversation, index: number, total: number): void {
  for (const [j, m] of conv.messages.entries()) {
    if (messageChars(m.parts) <= MAX_MESSAGE_CHARS) continue
    const where = total > 1 ? `Chat ${index + 1} ("${conv.title}"), message ${j + 1}` : `Message ${j + 1}`
    throw new ImportError(`${where}: ${MESSAGE_TOO_LONG}. Nothing was imported.`)
  }
}

/** A chat's rows are written in statements of at most this many characters of text, or rows. */
const STATEMENT_CHARS = 256 * 1024
const STATEMENT_ROWS = 500
/** Counting is given this long before the event loop gets a turn. */
const COUNT_SLICE_MS = 8

/** Each message's count for `spec`, long texts in slices, the event loop given a turn every few milliseconds. */
async function countInTurns(
  messages: ImportedConversation['messages'],
  spec: ModelSpec
): Promise<{ spec: ModelSpec; of: MessageCount[] }> {
  const of: MessageCount[] = []
  let started = performance.now()
  for (const m of messages) {
    if (performance.now() - started > COUNT_SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      started = performance.now()
    }
    of.push(await countMessageAsync({ role: m.role, parts: m.parts }, spec))
  }
  // The chat's transaction starts on a turn of its own, not after the last slice of counting.
  await new Promise((resolve) => setImmediate(resolve))
  return { spec, of }
}

/**
 * Imports conversations, each as one chat written in one transaction: a crash leaves a chat
 * whole or absent, never half. Each message is counted for the chat's model as it is written and
 * stored once with its count (no update afterwards); a tokenizer failure stores a chars/4 estimate,
 * marked as such.
 */
export async function importChats(
  app: { database: { db: Db }; services: Pick<Services, 'sessions' | 'models' | 'settings'> },
  conversations: readonly ImportedConversation[] | AsyncIterable<ImportedConversation>,
  options: ImportChatsOptions & {
    /** How many conversations a stream holds (checked by the caller, sizes included). */
    count?: number
  }
): Promise<ImportOutcome> {
  const count = 'length' in conversations ? conversations.length : (options.count ?? 0)
  if ('length' in conversations) conversations.forEach((conv, i) => assertImportSize(conv, i, count))
  const db = app.database.db
  const { sessions, models, settings } = app.services
  const outcome: ImportOutcome = { sessions: [], skipped: [] }
  for await (const conv of conversations) {
    const title = (count === 1 && options.title ? options.title : conv.title).slice(0, 200)
    const { systemPrompt, messages } = splitSystem(conv)
    if (messages.length === 0 && systemPrompt === null) {
      outcome.skipped.push({ title, reason: conv.emptyReason ?? 'it has no messages' })
      continue
    }
    const hash = contentHash(systemPrompt, messages)
    const earlier = options.again ? undefined : findImport(db, hash)
    if (earlier) {
      outcome.skipped.push({
        title,
        reason: `it was already imported on ${day(earlier.importedAt)} as "${earlier.title}" (${earlier.sessionId})`,
        sessionId: earlier.sessionId
      })
      continue
    }
    const now = Date.now()
    // A new chat has the default model: its messages are counted before the transaction, giving the
    // event loop back every few milliseconds, so the transaction only writes.
    const { defaultProvider, defaultModel } = settings.get()
    const counts = await countInTurns(messages, models.spec(defaultProvider, defaultModel))
    // One transaction per chat (a crash leaves it whole or absent), written a statement of rows per
    // turn of the event loop: a chat of 400 messages in one statement held it for 30-40 ms.
    const { session, written } = await inImportTransaction(db, async () => {
      const created = sessions.create(title)
      const session = systemPrompt === null ? created : sessions.update(created.id, { systemPrompt })
      const chat = settings.forChat(session)
      const spec = models.spec(chat.provider, chat.modelId)
      let written = 0
      let batch: ImportedRow[] = []
      let chars = 0
      const flush = () => {
        written += insertImportedMessages(db, session.id, batch, undefined, written + 1)
        options.onProgress?.('writing', written, messages.length)
        batch = []
        chars = 0
      }
      for (const [i, m] of messages.entries()) {
        const count = spec.id === counts.spec.id ? counts.of[i]! : countMessage({ role: m.role, parts: m.parts }, spec)
        batch.push({
          id: uuidv7(),
          role: m.role,
          parts: m.parts,
          createdAt: m.createdAt ?? now,
          tokenCount: count.tokens,
          tokenCounter: count.counter
        })
        chars += messageChars(m.parts)
        if (chars < STATEMENT_CHARS && batch.length < STATEMENT_ROWS) continue
        flush()
        await new Promise((resolve) => setImmediate(resolve))
      }
      if (batch.length) flush()
      recordImport(db, { sessionId: session.id, contentHash: hash, source: options.source, importedAt: now })
      return { session, written }
    })
    outcome.sessions.push({
      id: session.id,
      title: session.title,
      messages: written,
      systemPrompt: systemPrompt !== null
    })
  }
  return outcome
}
