import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDistill } from '../../../e2e/support/distill-server'

// Every command README.md lists, typed the way a person types it: `npx distill …` in the checkout.
const ROOT = join(__dirname, '..', '..', '..')
const SLOW = 180_000

interface Run {
  code: number
  stdout: string
  stderr: string
}

function distill(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/_(API_KEY|BASE_URL)$/.test(k)))
    execFile(
      'npx',
      ['--no-install', 'distill', ...args],
      { cwd: ROOT, env, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })
      }
    )
  })
}

function json<T>(run: Run): T {
  expect(run.stderr.replace(/^npm warn .*\n/gm, '')).not.toMatch(/distill: /)
  expect(run.code).toBe(0)
  return JSON.parse(run.stdout) as T
}

describe('the documented `npx distill` commands', () => {
  let dir = ''
  let db = ''
  let chatFile = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'distill-cli-'))
    db = join(dir, 'distill.db')
    chatFile = join(dir, 'boat.json')
    writeFileSync(
      chatFile,
      JSON.stringify([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Our boat is called Marlin and sleeps four.' },
        { role: 'assistant', content: 'Noted: Marlin, four berths.' },
        { role: 'user', content: 'The mooring fee is due on 1 March.' },
        { role: 'assistant', content: 'I will remember the 1 March mooring fee.' }
      ])
    )
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it(
    'prints its version and help',
    async () => {
      const version = await distill('--version')
      expect(version.code).toBe(0)
      expect(version.stdout.trim()).toBe(
        (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
      )
      const help = await distill('--help')
      expect(help.code).toBe(0)
      for (const command of ['serve', 'count', 'import', 'replay', 'sessions', 'context', 'compress']) {
        expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'))
      }
    },
    SLOW
  )

  it(
    'counts, imports, lists, shows the context and compresses a chat in the --db file',
    async () => {
      const count = json<{ model: string; tokens: number; messages: number; exact: boolean }>(
        await distill('--db', db, 'count', '--model', 'gpt-4o', '--json', chatFile)
      )
      expect(count).toMatchObject({ model: 'gpt-4o', messages: 5, exact: true })
      expect(count.tokens).toBeGreaterThan(30)

      // The file's system message becomes the chat's system prompt; the other four are messages.
      const imported = json<{
        sessions: Array<{ id: string; title: string; messages: number; systemPrompt: boolean }>
      }>(await distill('--db', db, 'import', '--title', 'Boat', '--json', chatFile))
      expect(imported.sessions).toEqual([{ id: expect.any(String), title: 'Boat', messages: 4, systemPrompt: true }])
      const id = imported.sessions[0]!.id

      const sessions = json<Array<{ id: string; title: string; messageCount: number }>>(
        await distill('--db', db, 'sessions', '--json')
      )
      expect(sessions).toMatchObject([{ id, title: 'Boat', messageCount: 4 }])

      const context = json<{ tokens: number; messages: Array<{ role: string; content: string }> }>(
        await distill('--db', db, 'context', '--session', id, '--json')
      )
      expect(context.messages.map((m) => m.content)).toContain('The mooring fee is due on 1 March.')
      expect(context.tokens).toBeGreaterThan(30)

      const compressed = json<{ report: { messagesSummarized: number; summarizer: string } }>(
        await distill(
          '--db',
          db,
          'compress',
          '--session',
          id,
          '--summarizer',
          'extractive',
          '--retention',
          '1',
          '--json'
        )
      )
      expect(compressed.report.summarizer).toBe('extractive')
      expect(compressed.report.messagesSummarized).toBeGreaterThan(0)

      const after = json<{ messages: Array<{ role: string; content: string }> }>(
        await distill('--db', db, 'context', '--session', id, '--json')
      )
      expect(after.messages.some((m) => m.role === 'system' && /Summary of/.test(m.content))).toBe(true)

      const bad = await distill('--db', db, 'context', '--session', 'no-such-chat')
      expect(bad.code).toBe(1)
      expect(bad.stderr).toMatch(/^distill: /m)
    },
    SLOW
  )

  it(
    'exports a chat as JSON while it is served, imports it into another file once, and again with --again',
    async () => {
      const source = join(dir, 'export-source.db')
      const [imported] = json<{ sessions: Array<{ id: string }> }>(
        await distill('--db', source, 'import', '--title', 'Boat', '--json', chatFile)
      ).sessions
      const server = await startDistill({ dbFile: source })
      const file = join(dir, 'boat.distill.json')
      try {
        // `distill serve` owns the file; export only reads it.
        const exported = await distill(
          '--db',
          source,
          'export',
          '--session',
          imported!.id,
          '--format',
          'json',
          '--out',
          file
        )
        expect(exported.code).toBe(0)
      } finally {
        await server.stop({ keepData: true })
      }
      const target = join(dir, 'export-target.db')
      const copy = json<{ sessions: Array<{ title: string; messages: number }> }>(
        await distill('--db', target, 'import', '--json', file)
      )
      expect(copy.sessions).toMatchObject([{ title: 'Boat', messages: 4 }])
      const twice = await distill('--db', target, 'import', file)
      expect(twice.code).toBe(1)
      expect(twice.stderr).toMatch(
        /^distill: This chat was already imported on .* as "Boat" \(.*\)\. Use --again to import it anyway\.$/m
      )
      // The second copy is titled as one.
      expect(json(await distill('--db', target, 'import', '--again', '--json', file))).toMatchObject({
        sessions: [{ title: 'Boat (copy)' }]
      })
    },
    SLOW
  )

  it(
    'prints the replay of a long chat whose log is checkpointed on its own thread during the run',
    async () => {
      // ~2 s of writing and more than 4 MB of log: the checkpoint thread runs and is idle at the end.
      // Its close once let the process end before the result was printed (exit code 0, no output).
      const file = join(dir, 'checkpointed.json')
      const messages = Array.from({ length: 300 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: `Message ${i}: ` + 'the harbour pilot logged tide tables and ferry times '.repeat(100)
      }))
      writeFileSync(file, JSON.stringify(messages))
      const replay = json<{ messages: number; compressions: number }>(
        await distill(
          '--db',
          join(dir, 'checkpointed.db'),
          'replay',
          file,
          '--model',
          'gpt-4o',
          '--context-window',
          '4096',
          '--json'
        )
      )
      expect(replay.messages).toBe(300)
      expect(replay.compressions).toBeGreaterThan(0)
    },
    SLOW
  )

  it.each(['tiered', 'importance'])(
    'prints the replay of a chat compressed with the %s strategy, whose runs start threads of their own',
    async (strategy) => {
      // A strategy's run once ended the summary thread and started one with more room; with nothing
      // else to wait on, the process ended in between (exit code 0, no output).
      const file = join(dir, `${strategy}.json`)
      const messages = Array.from({ length: 160 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content:
          `Day ${i}: the crew of boat ${i % 9} repaired net ${i * 3} and sold ${i * 11} kilos of cod at pier ${i % 4}. `.repeat(
            4
          )
      }))
      writeFileSync(file, JSON.stringify(messages))
      const replay = json<{ messages: number; compressions: number }>(
        await distill(
          '--db',
          join(dir, `${strategy}.db`),
          'replay',
          file,
          '--model',
          'gpt-4o',
          '--context-window',
          '4608',
          '--strategy',
          strategy,
          '--json'
        )
      )
      expect(replay.messages).toBe(160)
      expect(replay.compressions).toBeGreaterThan(0)
    },
    SLOW
  )

  it(
    'replays a conversation through auto-compression',
    async () => {
      const file = join(dir, 'long.jsonl')
      const lines: string[] = []
      for (let i = 0; i < 30; i++) {
        lines.push(
          JSON.stringify({
            role: 'user',
            content: `Fact ${i}: the locker code for shed ${i} is ${1000 + i}. `.repeat(6)
          })
        )
        lines.push(JSON.stringify({ role: 'assistant', content: `Noted the code for shed ${i}. `.repeat(6) }))
      }
      writeFileSync(file, lines.join('\n'))
      const replay = json<{ sessionId: string; messages: number; compressions: number; budget: { window: number } }>(
        await distill(
          '--db',
          join(dir, 'replay.db'),
          'replay',
          file,
          '--model',
          'gpt-4o',
          '--context-window',
          '3000',
          '--max-output',
          '500',
          '--json'
        )
      )
      expect(replay.messages).toBe(60)
      expect(replay.budget.window).toBe(3000)
      expect(replay.compressions).toBeGreaterThan(0)

      // A message twice the window: the request it would make stays within window − reserved output.
      const huge = `FIRST ${Array.from({ length: 6000 }, (_, i) => `w${i.toString(36)}`).join(' ')} LAST`
      const next = json<{
        tokens: number
        requestTokens: number
        stablePrefixTokens: number
        inputCut: number
        leftOut: number
        budget: { usable: number }
        messages: Array<{ role: string; content: string }>
      }>(
        await distill(
          '--db',
          join(dir, 'replay.db'),
          'context',
          '--session',
          replay.sessionId,
          '--message',
          huge,
          '--json'
        )
      )
      // The context as the meter shows it passes the budget; the request built from it does not.
      expect(next.tokens).toBeGreaterThan(next.budget.usable)
      expect(next.requestTokens).toBeLessThanOrEqual(next.budget.usable)
      expect(next.leftOut).toBe(0)
      expect(next.inputCut).toBeGreaterThan(1000)
      // The summary and the retained history come first: the part the next request repeats.
      expect(next.stablePrefixTokens).toBeGreaterThan(0)
      expect(next.stablePrefixTokens).toBeLessThan(next.requestTokens)
      const last = next.messages.at(-1)!.content
      expect(last).toMatch(/^FIRST .*\[\.\.\.[\d,]+\.\.\.\].* LAST$/s)
    },
    SLOW
  )

  it(
    'serves the page and the API, and stops without leaving a server behind',
    async () => {
      const server = await startDistill({ dbFile: join(dir, 'served.db') })
      let stopped = false
      try {
        const page = await fetch(server.origin)
        expect(page.status).toBe(200)
        expect(await page.text()).toMatch(/<div id="root">/)
        const token = new URLSearchParams(new URL(server.url).hash.slice(1)).get('token')!
        const info = await fetch(`${server.origin}/rpc/app.info`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: '{}'
        })
        expect(await info.json()).toMatchObject({ ok: true, data: { mode: 'browser' } })
        await server.stop({ keepData: true })
        stopped = true
        // Not only npm: the server process itself is gone and the port no longer answers.
        expect(() => process.kill(-server.processGroup, 0)).toThrow()
        await expect(fetch(server.origin)).rejects.toThrow()
      } finally {
        if (!stopped) await server.stop({ keepData: true })
      }
    },
    SLOW
  )
})
