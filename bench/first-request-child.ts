// A process of its own that opens a bench database as the app does (tokenizers loaded and the newest
// chat's request built while it opens), waits a moment, then times the first request of each chat
// named: what the first request in a process costs, with nothing cached but what the open prepares.
// Prints one JSON object, chat id → ms. Used by engine.bench.ts.
import { createApp } from '../src/main/app'
import { silentLogger } from '../src/main/logger'
import { buildModelRequest } from '../src/main/services/conversation/request-builder'

const [dbFile, ...sessionIds] = process.argv.slice(2)
const app = createApp({ dbFile: dbFile!, mode: 'browser', log: silentLogger, env: {}, warmTokenizers: true })
setTimeout(() => {
  const out: Record<string, number> = {}
  for (const id of sessionIds) measureFirst(id, out)
  function measureFirst(id: string, out: Record<string, number>) {
    const t0 = performance.now()
    buildModelRequest(app.services.usage.conversation(id))
    out[id] = performance.now() - t0
  }
  console.log(JSON.stringify(out))
  void app.close()
}, 3000)
