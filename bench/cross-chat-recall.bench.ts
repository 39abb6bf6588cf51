// Recall across the chats of a project: what planning a draft's Recall costs when it also searches
// the project's other chats. `npx vitest bench --run bench/cross-chat-recall.bench.ts`. One project of
// four chats of 2,500 messages, every message holding the draft's words (the worst case: every hit
// is ranked). The chat measured is compressed, so both rows plan Recall over its own summarized
// messages; the baseline is that same plan with Recall across chats off, and the other row adds the
// three other chats.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { createApp, type App } from '../src/main/app'
import { insertImportedMessages } from '../src/main/db/repositories/imports-repo'
import { silentLogger } from '../src/main/logger'
import { withDraft } from '../src/main/services/conversation/draft-conversation'

const CHATS = 4
const MESSAGES = 2_500
const WORDS = 'ferry island harbour ticket hotel museum dinner beach boat train budget luggage passport sunset'.split(
  ' '
)
// Every word it searches for is in every message ("leave", in none, would make the search look for that word alone).
const DRAFT = 'When is the ferry from the island to the harbour?'

let app: App
let dir: string
let target = ''
let projectId = ''

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'distill-cross-recall-bench-'))
  app = createApp({ dbFile: join(dir, 'bench.db'), mode: 'browser', log: silentLogger, env: {} })
  projectId = app.services.projects.create('Bench').id
  for (let c = 0; c < CHATS; c++) {
    const session = app.services.sessions.create(`Chat ${c}`)
    app.services.sessions.update(session.id, { projectId })
    target = session.id
    app.database.db.transaction((tx) =>
      insertImportedMessages(
        tx,
        session.id,
        (function* () {
          for (let i = 0; i < MESSAGES; i++) {
            const words = Array.from({ length: 25 }, (_, k) => WORDS[(i * 7 + k * 3 + c) % WORDS.length]).join(' ')
            yield {
              id: `${session.id}-${i}`,
              role: i % 2 ? ('assistant' as const) : ('user' as const),
              parts: [{ type: 'text' as const, text: `${words} note ${i}` }],
              createdAt: i,
              tokenCount: 40,
              tokenCounter: 'chars/4'
            }
          }
        })()
      )
    )
  }
  // Its own summarized history is what Recall searches with the project's chats left out.
  await app.services.compression.run(target, { summarizer: 'truncate', retentionOverride: 1000 })
  app.services.projects.update(projectId, { recallAcrossChats: false })
  if (plan().passages.length === 0) throw new Error('The baseline recalls nothing: it would measure no work.')
}, 120_000)

afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
}, 60_000)

const plan = () => app.services.recall.forRequest(withDraft(app.services.usage.conversation(target), DRAFT))

/** Declared async, so the bench runs it only as often as it says (a plain function is run once more to see what it returns). */
const planned = async () => void plan()
const across = (on: boolean) => () => void app.services.projects.update(projectId, { recallAcrossChats: on })

describe(`a draft's Recall plan, ${CHATS} chats of ${MESSAGES} messages in one project`, () => {
  bench("across chats off (baseline: the chat's own summarized messages searched and ranked)", planned, {
    setup: across(false)
  })
  bench('across chats on (the same, and the 3 other chats searched and ranked)', planned, { setup: across(true) })
})
