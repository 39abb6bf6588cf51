// A child process for the crash test: writes messages and compresses them in a loop, announcing
// on stdout each message once it is committed, until it is killed.
import { createApp } from '../../src/main/app'
import { silentLogger } from '../../src/main/logger'

async function main(): Promise<void> {
  const [dbFile, sessionArg] = process.argv.slice(2)
  const app = createApp({ dbFile: dbFile!, mode: 'browser', log: silentLogger, env: {} })
  app.services.settings.update({ summarizer: 'extractive' })
  const sessionId = sessionArg ?? app.services.sessions.create('Crash test').id
  process.stdout.write(`session ${sessionId}\n`)
  for (let i = 0; ; i++) {
    for (let j = 0; j < 3; j++) {
      const m = await app.services.chat.append(sessionId, {
        role: j % 2 ? 'assistant' : 'user',
        parts: [
          {
            type: 'text',
            text:
              `Round ${i}.${j}: the value of item ${i * 3 + j} is ${(i * 7919 + j) % 1000}. ` +
              'Filler sentence about the plan. '.repeat(20)
          }
        ]
      })
      process.stdout.write(`stored ${m.id}\n`)
    }
    await app.services.compression.run(sessionId, {
      summarizer: i % 2 ? 'extractive' : 'truncate',
      retentionOverride: 200
    })
    if (i % 4 === 3) await app.services.compression.undo(sessionId)
    process.stdout.write(`compressed ${i}\n`)
  }
}

void main()
