import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from '../app'
import { silentLogger } from '../logger'
import { runCli } from '../../../test/support/run-cli'
import { useTempDir } from '../../../test/support/temp-dir'

const conversation = Array.from({ length: 30 }, (_, i) =>
  JSON.stringify({
    role: i % 2 ? 'assistant' : 'user',
    content:
      `Turn ${i}: the budget for item ${i} is ${i * 37} euros. ` +
      'We keep discussing the plan in some detail. '.repeat(25)
  })
).join('\n')

describe('distill replay --db', () => {
  const tempDir = useTempDir()

  it('leaves the saved settings exactly as they were and names the chat it wrote', async () => {
    const dir = tempDir()
    const dbFile = join(dir, 'distill.db')
    const file = join(dir, 'chat.jsonl')
    writeFileSync(file, conversation)
    const app = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
    app.services.settings.update({
      autoCompress: false,
      retentionTokens: 500,
      summarizationModel: 'gpt-4.1-mini',
      customModels: [{ provider: 'openai-compatible', id: 'llama3', contextWindow: 8192, maxOutput: 1024 }]
    })
    const before = app.services.settings.get()
    await app.close()

    const out = JSON.parse(
      await runCli(
        '--db',
        dbFile,
        'replay',
        file,
        '--model',
        'gpt-4o',
        '--context-window',
        '2048',
        '--max-output',
        '256',
        '--summarizer',
        'truncate',
        '--json'
      )
    ) as { sessionId: string; compressions: number; budget: { window: number } }
    expect(out.compressions).toBeGreaterThan(0)
    expect(out.budget.window).toBe(2048)

    const reopened = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
    expect(reopened.services.settings.get()).toEqual(before)
    expect(reopened.services.chat.messages(out.sessionId)).toHaveLength(30)
    await reopened.close()
  }, 60_000)
})
