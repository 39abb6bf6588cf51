// A child process that owns a database the way `distill serve` does: it opens the app, leaves a
// reply streaming, announces "ready <sessionId> <replyId>", and holds the database until killed.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createApp } from '../../src/main/app'
import { appendMessage } from '../../src/main/db/repositories/messages/messages-repo'
import { silentLogger } from '../../src/main/logger'

function open(dbFile: string): Promise<string[]> {
  const app = createApp({ dbFile, mode: 'browser', command: 'owner-child', log: silentLogger, env: {} })
  const session = app.services.sessions.create('Streaming')
  // Stored without its token count, as after a crash while counting.
  appendMessage(app.database.db, {
    id: 'uncounted',
    sessionId: session.id,
    role: 'user',
    parts: [{ type: 'text', text: 'Tell me a long story' }],
    status: 'complete',
    createdAt: Date.now()
  })
  const reply = appendMessage(app.database.db, {
    id: 'streaming-reply',
    sessionId: session.id,
    role: 'assistant',
    parts: [{ type: 'text', text: 'Once upon' }],
    status: 'streaming',
    createdAt: Date.now()
  })
  return Promise.resolve([session.id, reply.id])
}

void open(process.argv[2]!).then((ids) => {
  // Nothing keeps the app reachable now: collecting garbage must not release the database.
  setTimeout(() => {
    setFlagsFromString('--expose-gc')
    ;(runInNewContext('gc') as () => void)()
    process.stdout.write(`ready ${ids.join(' ')}\n`)
  }, 0)
  setInterval(() => {}, 60_000)
})
