import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createApp } from '../app'
import { silentLogger } from '../logger'
import { spawnTs } from '../../../test/support/child-process'
import { runCli } from '../../../test/support/run-cli'
import { useTempDir } from '../../../test/support/temp-dir'

describe('distill on the command line', () => {
  const tempDir = useTempDir()

  async function chat(): Promise<{ db: string; id: string }> {
    const db = join(tempDir(), 'distill.db')
    const app = createApp({ dbFile: db, mode: 'browser', log: silentLogger, env: {} })
    const session = app.services.sessions.create('Boat')
    for (let i = 0; i < 200; i++)
      await app.services.chat.append(session.id, {
        role: i % 2 ? 'assistant' : 'user',
        parts: [{ type: 'text', text: `Line ${i} of a long chat. `.repeat(20) }]
      })
    await app.close()
    return { db, id: session.id }
  }

  it('context takes the message from a file, for messages too long or awkward for an argument', async () => {
    const { db, id } = await chat()
    const file = join(tempDir(), 'message.txt')
    writeFileSync(file, 'A message with "quotes", $dollars and\nseveral lines.\n')
    const out = JSON.parse(await runCli('--db', db, 'context', '--session', id, '--message-file', file, '--json')) as {
      messages: Array<{ content: string }>
    }
    expect(out.messages.at(-1)!.content).toBe('A message with "quotes", $dollars and\nseveral lines.\n')
    await expect(
      runCli('--db', db, 'context', '--session', id, '--message-file', join(tempDir(), 'missing.txt'))
    ).rejects.toThrow(/Cannot read the message from .*missing\.txt: there is no such file/)
  }, 30_000)

  it('count takes a message of 1,000,000 × "b" in moments (it took 447 s) and counts it like tiktoken', async () => {
    const file = join(tempDir(), 'one.json')
    writeFileSync(file, JSON.stringify([{ role: 'user', content: 'b'.repeat(1_000_000) }]))
    const started = performance.now()
    const out = JSON.parse(await runCli('count', '--model', 'gpt-4o', '--json', file)) as {
      tokens: number
      exact: boolean
    }
    expect(performance.now() - started).toBeLessThan(10_000)
    // 250,000 tokens of "bbbb", the framing (3 + 1 for the role) and the reply priming (3).
    expect(out).toMatchObject({ tokens: 250_007, exact: true })
  }, 30_000)

  it('stops quietly when the reader of its output goes away (distill … | head)', async () => {
    const { db, id } = await chat()
    const run = spawnTs('test/support/cli-child.ts', ['--db', db, 'context', '--session', id])
    run.child.stdout!.destroy() // head has read its lines and closed the pipe
    const { code } = await run.exited
    expect(run.stderr()).not.toMatch(/EPIPE|\n\s+at /)
    expect(code).toBe(0)
  }, 30_000)
})
