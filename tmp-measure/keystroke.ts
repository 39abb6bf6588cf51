import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/main/app'
import { silentLogger } from '../src/main/logger'
import { appendMessage } from '../src/main/db/repositories/messages-repo'
import { countMessage } from '../src/main/tokens/message-tokens'
import { resolveModel } from '../src/main/models/catalog'

const n = Number(process.argv[2] ?? 100_000)
const dir = mkdtempSync(join(tmpdir(), 'ks-'))
const app = createApp({ dbFile: join(dir, 'k.db'), mode: 'browser', log: silentLogger, env: {} })
const spec = resolveModel('openai', 'gpt-4o')
const words = 'alpha harbor lantern order shipment invoice river stone meeting budget plan release'.split(' ')
const source = Array.from({ length: 50 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', parts: [{ type: 'text' as const, text: Array.from({ length: 40 }, (_, j) => words[(i * 7 + j) % words.length]).join(' ') + ` on 3 May 2023 number ${i}` }] }))
const counts = source.map((m) => countMessage(m, spec))
async function main() {
  const s = app.services.sessions.create('k')
  app.services.sessions.update(s.id, { provider: 'openai', modelId: 'gpt-4o' })
  app.database.db.transaction((tx) => {
    for (let i = 0; i < n; i++) {
      const m = source[i % source.length]!
      appendMessage(tx, { id: `${s.id}-${i}`, sessionId: s.id, role: m.role, parts: m.parts, status: 'complete', createdAt: i * 60_000, tokenCount: counts[i % source.length]!.tokens, tokenCounter: counts[i % source.length]!.counter })
    }
  })
  await app.services.compression.run(s.id, { summarizer: 'truncate', retentionOverride: 60_000 })
  const draft = 'And then what happened to the shipment of the order we planned in May?'
  for (const recall of [false, true]) {
    const times: number[] = []
    for (let i = 1; i <= 40; i++) {
      const t = performance.now()
      app.services.usage.context(s.id, draft.slice(0, 20 + i), { recall })
      times.push(performance.now() - t)
    }
    times.sort((a, b) => a - b)
    console.log(`${n} compressed, recall ${recall}: median ${times[20]!.toFixed(1)} ms, p90 ${times[36]!.toFixed(1)} ms, first ${times[0]!.toFixed(1)}`)
  }
  await app.close()
}
void main()
