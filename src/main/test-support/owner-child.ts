// A child process that owns a database the way `distill serve` does: it opens the app, leaves a
// reply streaming, announces "ready <sessionId> <replyId>", and holds the database until killed.
import { createApp } from '../app'
import { appendMessage } from '../db/repositories/messages-repo'
import { silentLogger } from '../logger'

async function main(): Promise<void> {
const [dbFile] = process.argv.slice(2)
const app = createApp({ dbFile: dbFile!, mode: 'browser', command: 'owner-child', log: silentLogger, env: {} })
const session = app.services.sessions.create('Streaming')
await app.services.chat.append(session.id, { role: 'user', parts: [{ type: 'text', text: 'Tell me a long story' }] })
const reply = appendMessage(app.database.db, {
  id: 'streaming-reply',
  sessionId: session.id,
  role: 'assistant',
  parts: [{ type: 'text', text: 'Once upon' }],
  status: 'streaming',
  createdAt: Date.now()
})
process.stdout.write(`ready ${session.id} ${reply.id}\n`)
setInterval(() => {}, 60_000)
}

void main()
