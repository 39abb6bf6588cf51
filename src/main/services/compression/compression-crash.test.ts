import { spawn } from 'node:child_process'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../app'
import { silentLogger } from '../../logger'
import { useTempDir } from '../../../../test/support/temp-dir'

const ROOT = join(__dirname, '..', '..', '..', '..')
const CHILD = join(ROOT, 'test', 'support', 'crash-child.ts')

/** Runs the child until `killAfterMs` after its first commit, then SIGKILLs it; returns the committed ids. */
function runAndKill(
  dbFile: string,
  sessionId: string | undefined,
  killAfterMs: number
): Promise<{ sessionId: string; stored: string[]; compressions: number }> {
  return new Promise((resolve, reject) => {
    // tsx as a loader in this very process: its CLI would run the script in a grandchild that
    // SIGKILL could not reach.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS')
    )
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dbFile, ...(sessionId ? [sessionId] : [])], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const stored: string[] = []
    let session = sessionId
    let compressions = 0
    let buffer = ''
    let stderr = ''
    let armed = false
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop()!
      for (const line of lines) {
        const [kind, value] = line.split(' ')
        if (kind === 'session') session = value
        if (kind === 'stored') stored.push(value!)
        if (kind === 'compressed') compressions++
        if (kind === 'stored' && !armed) {
          armed = true
          setTimeout(() => child.kill('SIGKILL'), killAfterMs)
        }
      }
    })
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child ended without being killed:\n${stderr}`))
      else resolve({ sessionId: session!, stored, compressions })
    })
  })
}

describe('a crash in the middle of compression', () => {
  const tempDir = useTempDir()

  it('leaves a sound database, every committed message, and either the old or the new context', async () => {
    const dbFile = join(tempDir(), 'crash.db')
    let sessionId: string | undefined
    const committed: string[] = []
    let compressions = 0
    // Kill points spread over the loop: during writes, summaries, snapshot transactions and undos.
    const delays = [5, 40, 90, 150, 230, 320, 410, 520, 640, 770, 15, 280]
    for (const delay of delays) {
      const run = await runAndKill(dbFile, sessionId, delay)
      sessionId = run.sessionId
      committed.push(...run.stored)
      compressions += run.compressions

      const db = new Database(dbFile)
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      expect(db.pragma('foreign_key_check')).toEqual([])
      const ids = new Set((db.prepare('SELECT id FROM chat_messages').all() as Array<{ id: string }>).map((r) => r.id))
      for (const id of committed) expect(ids.has(id)).toBe(true)
      // The full-text index stayed in step with the messages.
      expect(db.prepare('SELECT count(*) AS n FROM messages_fts').get()).toEqual({ n: ids.size })
      const active = db
        .prepare("SELECT id, message_cutoff_id FROM session_snapshots WHERE status = 'active' AND kind = 'summary'")
        .all() as Array<{ message_cutoff_id: string }>
      expect(active.length).toBeLessThanOrEqual(1)
      for (const a of active) expect(ids.has(a.message_cutoff_id)).toBe(true)
      db.close()
    }
    expect(compressions).toBeGreaterThan(3)

    // The app opens the survivor and builds a context that fits.
    const app = createApp({ dbFile, mode: 'browser', log: silentLogger, env: {} })
    const usage = app.services.next.meter(sessionId!)
    expect(usage.tokens).toBeGreaterThan(0)
    expect(app.services.chat.messages(sessionId!).length).toBeGreaterThanOrEqual(committed.length)
    await app.close()
  }, 120_000)
})
