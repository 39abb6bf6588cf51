// A child process for the import crash test: imports one long conversation, announcing
// "writing <n>" after each batch of stored messages (inside the chat's transaction), until it is killed.
import { createApp } from '../../src/main/app'
import { importChats } from '../../src/main/services/imports/import-chats'
import { silentLogger } from '../../src/main/logger'

const [dbFile, count] = process.argv.slice(2)
const messages = Array.from({ length: Number(count) }, (_, i) => ({
  role: i % 2 ? ('assistant' as const) : ('user' as const),
  parts: [{ type: 'text' as const, text: `Message ${i}: the value of item ${i} is ${(i * 7919) % 1000}.` }]
}))
const app = createApp({ dbFile: dbFile!, mode: 'browser', log: silentLogger, env: {} })
void importChats(app, [{ title: 'Long chat', messages }], {
  source: 'long.jsonl',
  onProgress: (phase, done) => {
    if (phase === 'writing') process.stdout.write(`writing ${done}\n`)
  }
}).then(async () => {
  process.stdout.write('done\n')
  await app.close()
})
