import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { App } from '../src/main/app'
import type { Tx } from '../src/main/db/client'
import { insertImportedMessages } from '../src/main/db/repositories/imports-repo'
import { parseOpenAIMessages } from '../src/main/importers/openai-messages'

const source = parseOpenAIMessages(
  readFileSync(join(__dirname, '..', 'fixtures', 'conversations', 'software-project.jsonl'), 'utf8')
)

/**
 * Writes `n` messages of a real conversation into a chat as `distill import` writes them
 * (multi-row inserts, counted once), to keep a bench's setup short. `shift` starts elsewhere in
 * the conversation, so chats differ.
 */
export function storeMessages(
  app: App | { database: App['database'] },
  sessionId: string,
  n: number,
  shift = 0,
  tx?: Tx
): void {
  const write = (t: Tx) =>
    insertImportedMessages(
      t,
      sessionId,
      (function* () {
        for (let i = 0; i < n; i++) {
          const m = source[(i + shift) % source.length]!
          yield {
            id: `${sessionId}-${i}`,
            role: m.role,
            parts: m.parts,
            createdAt: i,
            tokenCount: 10,
            tokenCounter: 'chars/4'
          }
        }
      })()
    )
  if (tx) write(tx)
  else app.database.db.transaction(write)
}
