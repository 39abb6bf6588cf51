// Recall across the chats of a project: what planning a draft's Recall costs when it also searches
// the project's other chats. `npx vitest bench --run bench/cross-chat-recall.bench.ts`. One project of
// four chats of 2,500 messages, every message holding the draft's words (the worst case: every hit
// is ranked); the baseline is the same chat with Recall across chats off.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { createApp, type App } from '../src/main/app'
import { appendMessage } from '../src/main/db/repositories/messages/messages-repo'
import { silentLogger } from '../src/main/logger'
import { withDraft } from '../src/main/services/conversation/draft-conversation'

const CHATS = 4
const MESSAGES = 2_500
const WORDS = 'ferry island harbour ticket hotel museum dinner beach boat train budget luggage passport sunset'.split(
  ' '
)
const DRAFT = 'When does the ferry to the island leave the harbour?'

let app: App
let dir: string
let target = ''
let projectId = ''

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'distill-cross-recall-bench-'))
  app = createApp({ dbFile: join(dir, 'bench.db'), mode: 'browser', log: silentLogger, env: {} })
  projectId = app.services.projects.create('Bench').id
  for (let c = 0; c < CHATS; c++) {
    const session = app.services.sessions.create(`Chat ${c}`)
    app.services.sessions.update(session.id, { projectId })
    target = session.id
    app.database.db.transaction((tx) => {
      for (let i = 0; i < MESSAGES; i++) {
        const words = Array.from({ length: 25 }, (_, k) => WORDS[(i * 7 + k * 3 + c) % WORDS.length]).join(' ')
        appendMessage(tx, {
          id: `${session.id}-${i}`,
          sessionId: session.id,
          role: i % 2 ? 'assistant' : 'user',
          parts: [{ type: 'text', text: `${words} note ${i}` }],
          status: 'complete',
          createdAt: i,
          tokenCount: 40,
          tokenCounter: 'chars/4'
        })
      }
    })
  }
}, 120_000)

afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

const plan = () => app.services.recall.forRequest(withDraft(app.services.usage.conversation(target), DRAFT))

describe(`a draft's Recall plan, ${CHATS} chats of ${MESSAGES} messages in one project`, () => {
  bench('across chats off (baseline: the chat has no summary, nothing to search)', () => {
    app.services.projects.update(projectId, { recallAcrossChats: false })
    plan()
  })
  bench('across chats on (the 3 other chats searched and ranked)', () => {
    app.services.projects.update(projectId, { recallAcrossChats: true })
    plan()
  })
})
