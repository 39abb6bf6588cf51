#!/usr/bin/env node
/**
 * Answer-word recall on real long conversations (LoCoMo, ACL 2024): runs the shared measuring script
 * (`../shared/eval/locomo-recall.mjs`) on `../shared/data/locomo-dev` for each strategy and window, then
 * writes the table into docs/quality.md between its markers (the fixture results stay as they are).
 *
 *   npm run eval:real [-- --strategies rolling,tiered,importance] [--windows 4096:512,16384:1024] [--no-write]
 *                       [--summarizer extractive|llm]
 *
 * `--summarizer llm` writes the summaries with the model, served by the project's fake provider on 127.0.0.1
 * (no real provider is ever called): it answers a summary request with a reply that keeps only the
 * start of the request, i.e. a model summary that drops nearly every fact, so the table shows what the
 * llm path's own safeguards (the "Details" of names, numbers and dates it lost, the budget checks)
 * keep. Its table goes to its own markers in docs/quality.md.
 *
 * The replay runs through `npx --no-install distill` unless DISTILL_CLI names a built cli.js
 * (e.g. `DISTILL_CLI=out/main/cli.js` after `npx electron-vite build`).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { spawn, spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const value = (name, fallback) => {
  const i = argv.indexOf(name)
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback
}
/** `../shared` beside the project; a worktree one level deeper finds it further up. */
function shared(...path) {
  for (let dir = dirname(ROOT); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', ...path)
    if (existsSync(candidate) || dirname(dir) === dir)
      return existsSync(candidate) ? candidate : resolve(ROOT, '..', 'shared', ...path)
  }
}
const data = resolve(ROOT, value('--data', shared('data', 'locomo-dev')))
const script = resolve(ROOT, value('--script', shared('eval', 'locomo-recall.mjs')))
const strategies = value('--strategies', 'rolling,tiered,importance').split(',').filter(Boolean)
const windows = value('--windows', '4096:512,16384:1024')
  .split(',')
  .map((w) => w.split(':').map(Number))
  .map(([window, reserved]) => ({ window, reserved: reserved ?? 512 }))
const write = !argv.includes('--no-write')
const summarizer = value('--summarizer', 'extractive')
if (!['extractive', 'llm'].includes(summarizer)) {
  console.error('--summarizer takes extractive or llm.')
  process.exit(2)
}
const doc = resolve(ROOT, value('--out', join('docs', 'quality.md')))

export const START = '<!-- eval:real start -->'
export const END = '<!-- eval:real end -->'
const LLM_START = '<!-- eval:real llm start -->'
const LLM_END = '<!-- eval:real llm end -->'

if (!existsSync(data) || !existsSync(script)) {
  const missing = !existsSync(data) ? data : script
  console.log(
    `Skipped the real-conversation evaluation: ${missing} does not exist (it lives beside the project, outside the repository).`
  )
  process.exit(0)
}
if (windows.some((w) => !(w.window > 0) || !(w.reserved >= 0))) {
  console.error('--windows takes WINDOW:RESERVED pairs separated by commas, e.g. 4096:512,16384:1024.')
  process.exit(2)
}

const pct = (x) => (typeof x === 'number' ? `${(100 * x).toFixed(1)}%` : '–')
const num = (x) => (typeof x === 'number' ? x.toLocaleString('en-US') : '–')
/** The fake provider as a child process; resolves with its OpenAI base URL once it listens. */
function startFake() {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(ROOT, 'e2e', 'fake-provider', 'cli.ts'),
      '--port',
      '0',
      '--quiet'
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit']
    }
  )
  return new Promise((resolveUrl, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const m = /OPENAI_BASE_URL=(\S+)/.exec(out)
      if (m) resolveUrl({ child, openai: m[1] })
    })
    child.on('exit', (code) => reject(new Error(`the fake provider exited (${code})`)))
  })
}

const fake = summarizer === 'llm' ? await startFake() : undefined
const env = fake ? { ...process.env, OPENAI_API_KEY: 'sk-eval-fake', OPENAI_BASE_URL: fake.openai } : process.env
const work = mkdtempSync(join(tmpdir(), 'distill-eval-real-'))
const rows = []
let failed = false
try {
  for (const { window, reserved } of windows) {
    for (const strategy of strategies) {
      const out = join(work, `${window}-${strategy}.json`)
      const started = process.hrtime.bigint()
      process.stderr.write(`${strategy} at ${window.toLocaleString('en-US')} tokens (${reserved} reserved) … `)
      const r = spawnSync(
        process.execPath,
        [
          script,
          '--data',
          data,
          '--project',
          ROOT,
          '--window',
          String(window),
          '--max-output',
          String(reserved),
          '--strategies',
          strategy,
          '--summarizer',
          summarizer,
          '--json',
          out
        ],
        { cwd: ROOT, encoding: 'utf8', env, maxBuffer: 64 << 20 }
      )
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      const result = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8'))[strategy] : undefined
      if (!result) {
        failed = true
        const why = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-3).join(' ')
        process.stderr.write(`failed: ${why || `exit code ${r.status}`}\n`)
        rows.push({ strategy, window, reserved, error: why || `exit code ${r.status}` })
        continue
      }
      if (r.status !== 0) failed = true
      process.stderr.write(
        `final ${pct(result.final)} vs truncation ${pct(result.truncation)}, ${seconds.toFixed(0)} s\n`
      )
      rows.push({ strategy, window, reserved, seconds, ...result })
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
  fake?.child.kill()
}

const full = rows.find((r) => typeof r.full === 'number')?.full
const table = [
  '| Strategy | Window (reserved) | Final context | Truncation at same size | Ratio | Compressions | Overflows | Max context |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) =>
    r.error
      ? `| ${r.strategy} | ${num(r.window)} (${num(r.reserved)}) | failed: ${r.error.replace(/\|/g, '/')} | | | | | |`
      : `| ${r.strategy} | ${num(r.window)} (${num(r.reserved)}) | ${pct(r.final)} | ${pct(r.truncation)} | ×${(r.final / r.truncation).toFixed(2)} | ${num(r.compressions)} | ${num(r.overflows)} | ${num(r.maxContext)} |`
  )
].join('\n')
const conversations = rows.find((r) => r.conversations)?.conversations
const questions = rows.find((r) => r.questions)?.questions
const [open, close] = summarizer === 'llm' ? [LLM_START, LLM_END] : [START, END]
const section =
  summarizer === 'llm'
    ? `${open}
### The llm summarizer against the fake provider

Generated by \`npm run eval:real -- --summarizer llm\`: the same replay, with every summary requested from a
model, here the project's fake provider on 127.0.0.1, whose "summary" keeps only the first 200 characters of the
request. What survives is what the llm path adds itself: the "Details" line of the names, numbers and dates the
model's text lost, within the summary's budget, and the budget checks. A real model writes better summaries; this
checks the path end to end and that it never overflows. The tiered and importance strategies write their tiers
offline whatever the summarizer, so their rows match the extractive table.

${table}
${close}`
    : `${open}
## Real conversations (LoCoMo)

Generated by \`npm run eval:real\` (\`scripts/eval-real.mjs\`), extractive summarizer. Each of the ${num(conversations)} development
conversations of LoCoMo ("Evaluating Very Long-Term Conversational Memory of LLM Agents", ACL 2024; ${num(questions)}
questions with answers) is replayed turn by turn through the real auto-compression path, and the final context is
scored by answer-word recall: the share of each answer's words found in it, averaged over questions. The baseline
keeps the most recent messages cut to the same token count. The whole conversation scores ${pct(full)}.

${table}
${close}`

console.log(`\n${table}`)
if (write) {
  const before = existsSync(doc) ? readFileSync(doc, 'utf8') : '# Compression quality\n'
  const at = before.indexOf(open)
  const end = before.indexOf(close)
  const next =
    at >= 0 && end > at
      ? `${before.slice(0, at)}${section}${before.slice(end + close.length)}`
      : `${before.trimEnd()}\n\n${section}\n`
  writeFileSync(doc, next)
  console.log(`\nWrote ${doc}`)
}
process.exit(failed ? 1 : 0)
