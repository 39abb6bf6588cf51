import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { App } from '../src/main/app'
import type { Tx } from '../src/main/db/client'
import { insertImportedMessages } from '../src/main/db/repositories/imports-repo'
import { parseOpenAIMessages } from '../src/main/imports/openai-messages'
import type { ChatMessage } from '../src/shared/domain/chat-message'

const source = parseOpenAIMessages(
  readFileSync(join(__dirname, '..', 'fixtures', 'conversations', 'software-project.jsonl'), 'utf8')
)

export interface StoreOptions {
  /** Starts elsewhere in the conversation, so chats differ. */
  shift?: number
  /** Writes inside this transaction (else in one of its own). */
  tx?: Tx
  /** Counts each message as the chat's model counts it (else a flat 10 tokens, chars/4). */
  count?: (m: Pick<ChatMessage, 'role' | 'parts'>) => { tokens: number; counter: string }
}

/**
 * Writes `n` messages of a real conversation into a chat as `distill import` writes them
 * (multi-row inserts, counted once), to keep a bench's setup short.
 */
export function storeMessages(app: App, sessionId: string, n: number, { shift = 0, tx, count }: StoreOptions = {}) {
  const write = (t: Tx) =>
    insertImportedMessages(
      t,
      sessionId,
      (function* () {
        for (let i = 0; i < n; i++) {
          const m = source[(i + shift) % source.length]!
          const counted = count?.(m)
          yield {
            id: `${sessionId}-${i}`,
            role: m.role,
            parts: m.parts,
            createdAt: i,
            tokenCount: counted?.tokens ?? 10,
            tokenCounter: counted?.counter ?? 'chars/4'
          }
        }
      })()
    )
  if (tx) write(tx)
  else app.database.db.transaction(write)
}
