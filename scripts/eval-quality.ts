/**
 * Fact-retention evaluation: replays each fixture conversation through the real auto-compression path
 * (`distill replay`) and checks which planted facts are still in the final model context.
 *
 *   npx tsx scripts/eval-quality.ts [--json] [--no-write] [--windows 4096,8192,16384] [--max-output 1024]
 *                                   [--summarizers extractive,truncate] [--only NAME] [--cli out/main/cli.js]
 *
 * Writes docs/quality.md (unless --no-write) and prints the table, or JSON with --json.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'

const ROOT = resolve(__dirname, '..')
const FIXTURES = join(ROOT, 'fixtures', 'conversations')
const DEFAULT_DOC = join('docs', 'quality.md')
const MODEL = 'gpt-4o'
const RUN_TIMEOUT_MS = 15 * 60_000

interface Fact {
  fact: string
  keywords: string[]
  plantedAt: number
}

interface Fixture {
  name: string
  file: string
  facts: Fact[]
  messages: number
  tokens?: number
}

interface ReplayOutput {
  messages: number
  compressions: number
  overflows: number
  maxContextTokens: number
  context: { tokens: number; messages: Array<{ role: string; content: unknown }> }
}

interface Row {
  fixture: string
  window: number
  summarizer: string
  factsAll: number
  factsAny: number
  facts: number
  contextTokens: number
  maxContextTokens: number
  compressions: number
  overflows: number
  seconds: number
  lost: string[]
  error?: string
}

function parseArgs(argv: string[]) {
  const value = (flag: string, fallback: string) => {
    const i = argv.indexOf(flag)
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback
  }
  const list = (flag: string, fallback: string) =>
    value(flag, fallback)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  return {
    json: argv.includes('--json'),
    write: !argv.includes('--no-write'),
    windows: list('--windows', '4096,8192,16384').map(Number),
    maxOutput: Number(value('--max-output', '1024')),
    summarizers: list('--summarizers', 'extractive,truncate'),
    only: argv.includes('--only') ? list('--only', '') : undefined,
    cli: resolve(ROOT, value('--cli', join('out', 'main', 'cli.js'))),
    doc: resolve(ROOT, value('--out', DEFAULT_DOC))
  }
}

function fail(message: string): never {
  process.stderr.write(`eval-quality: ${message}\n`)
  process.exit(2)
}

/** The CLI must exist and know `replay`; say what to do when it does not. */
function checkCli(cli: string): void {
  if (!existsSync(cli)) fail(`${cli} does not exist. Build it first: npm run build`)
  const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8', timeout: 60_000 })
  if (help.error) fail(`could not run ${cli}: ${help.error.message}`)
  if (!/^\s+replay\b/m.test(`${help.stdout}${help.stderr}`)) {
    fail(
      `${cli} has no \`replay\` command (see \`node ${cli} --help\`). Rebuild (npm run build) once replay is implemented.`
    )
  }
}

function loadFixtures(only?: string[]): Fixture[] {
  if (!existsSync(FIXTURES)) fail(`no fixtures at ${FIXTURES}`)
  const files = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
  const fixtures = files
    .map((f): Fixture => {
      const name = basename(f, '.jsonl')
      const factsFile = join(FIXTURES, `${name}.facts.json`)
      if (!existsSync(factsFile)) fail(`${f} has no companion ${name}.facts.json`)
      const facts = JSON.parse(readFileSync(factsFile, 'utf8')) as Fact[]
      const messages = readFileSync(join(FIXTURES, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim()).length
      return { name, file: join(FIXTURES, f), facts, messages }
    })
    .filter((f) => !only || only.includes(f.name))
  if (fixtures.length === 0) fail('no fixture matched')
  return fixtures
}

function run(
  cli: string,
  args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string; seconds: number }> {
  return new Promise((done) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')))
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
    const finish = (code: number | null) => {
      clearTimeout(timer)
      done({ code, stdout, stderr, seconds: Number(process.hrtime.bigint() - started) / 1e9 })
    }
    child.on('error', (err) => {
      stderr += err.message
      finish(null)
    })
    child.on('close', finish)
  })
}

/** The last JSON object in the output: tolerant of a progress line or warning printed before it. */
function parseReplay(stdout: string): ReplayOutput {
  const start = stdout.indexOf('{')
  if (start < 0) throw new Error('replay printed no JSON')
  const parsed = JSON.parse(stdout.slice(start)) as Partial<ReplayOutput>
  if (!parsed.context || !Array.isArray(parsed.context.messages)) throw new Error('replay JSON has no context.messages')
  return parsed as ReplayOutput
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content))
    return content.map((p) => (typeof p === 'string' ? p : ((p as { text?: string })?.text ?? ''))).join('\n')
  return content == null ? '' : JSON.stringify(content)
}

async function countTokens(cli: string, file: string): Promise<number | undefined> {
  const r = await run(cli, ['count', '--model', MODEL, file, '--json'])
  try {
    return (JSON.parse(r.stdout) as { tokens: number }).tokens
  } catch {
    return undefined
  }
}

async function evaluate(
  cli: string,
  fixture: Fixture,
  window: number,
  maxOutput: number,
  summarizer: string
): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'distill-eval-'))
  const base = { fixture: fixture.name, window, summarizer, facts: fixture.facts.length }
  try {
    const args = [
      'replay',
      fixture.file,
      '--model',
      MODEL,
      '--context-window',
      String(window),
      '--max-output',
      String(maxOutput)
    ]
    // 'tiered' and 'importance' name strategies (with their local summaries); the rest are summarizers
    // of the rolling strategy.
    if (summarizer === 'tiered' || summarizer === 'importance')
      args.push('--strategy', summarizer, '--summarizer', 'extractive')
    else args.push('--summarizer', summarizer)
    args.push('--db', join(dir, 'eval.db'), '--json')
    const r = await run(cli, args)
    if (r.code !== 0) throw new Error(r.stderr.trim().split('\n').slice(-3).join(' ') || `exit code ${r.code}`)
    const out = parseReplay(r.stdout)
    const context = out.context.messages
      .map((m) => contentText(m.content))
      .join('\n')
      .toLowerCase()
    const has = (k: string) => context.includes(k.toLowerCase())
    const lost = fixture.facts.filter((f) => !f.keywords.every(has)).map((f) => f.fact)
    return {
      ...base,
      factsAll: fixture.facts.length - lost.length,
      factsAny: fixture.facts.filter((f) => f.keywords.some(has)).length,
      contextTokens: out.context.tokens,
      maxContextTokens: out.maxContextTokens,
      compressions: out.compressions,
      overflows: out.overflows,
      seconds: r.seconds,
      lost
    }
  } catch (err) {
    const nan = Number.NaN
    return {
      ...base,
      factsAll: nan,
      factsAny: nan,
      contextTokens: nan,
      maxContextTokens: nan,
      compressions: nan,
      overflows: nan,
      seconds: nan,
      lost: [],
      error: (err as Error).message
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const pct = (n: number, d: number) => (Number.isFinite(n) && d > 0 ? `${Math.round((100 * n) / d)}%` : '–')
const num = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-US') : '–')

function resultsTable(rows: Row[]): string {
  const out = [
    '| Fixture | Window | Summarizer | Facts kept (all keywords) | Facts kept (any keyword) | Final context tokens | Max context tokens | Compressions | Overflows | Wall time |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|'
  ]
  for (const r of rows) {
    const facts = r.error
      ? `error: ${r.error.replace(/\|/g, '/')}`
      : `${r.factsAll}/${r.facts} (${pct(r.factsAll, r.facts)})`
    out.push(
      `| ${r.fixture} | ${num(r.window)} | ${r.summarizer} | ${facts} | ${pct(r.factsAny, r.facts)} | ${num(r.contextTokens)} | ${num(r.maxContextTokens)} | ${num(r.compressions)} | ${num(r.overflows)} | ${Number.isFinite(r.seconds) ? `${r.seconds.toFixed(1)} s` : '–'} |`
    )
  }
  return out.join('\n')
}

function overallTable(rows: Row[], windows: number[], summarizers: string[]): string {
  const out = [
    '| Window | ' + summarizers.map((s) => `${s}: facts kept`).join(' | ') + ' |',
    '|---:|' + summarizers.map(() => '---:|').join('')
  ]
  for (const w of windows) {
    const cells = summarizers.map((s) => {
      const ok = rows.filter((r) => r.window === w && r.summarizer === s && !r.error)
      const kept = ok.reduce((n, r) => n + r.factsAll, 0)
      const total = ok.reduce((n, r) => n + r.facts, 0)
      return ok.length ? `${kept}/${total} (${pct(kept, total)})` : '–'
    })
    out.push(`| ${num(w)} | ${cells.join(' | ')} |`)
  }
  return out.join('\n')
}

function fixturesTable(fixtures: Fixture[]): string {
  const out = [
    '| Fixture | Messages | Tokens (gpt-4o) | Facts | Planted at (message index) |',
    '|---|---:|---:|---:|---|'
  ]
  for (const f of fixtures) {
    const at = f.facts.map((x) => x.plantedAt).sort((a, b) => a - b)
    out.push(
      `| ${f.name} | ${f.messages} | ${f.tokens === undefined ? '–' : num(f.tokens)} | ${f.facts.length} | ${at[0]}–${at[at.length - 1]}, median ${at[Math.floor(at.length / 2)]} |`
    )
  }
  return out.join('\n')
}

function document(fixtures: Fixture[], rows: Row[], opts: ReturnType<typeof parseArgs>): string {
  return `# Compression quality

Generated by \`npx tsx scripts/eval-quality.ts\`; rerun it after changing the engine, the summarizers or the fixtures.

## Method

Each fixture conversation (\`fixtures/conversations/*.jsonl\`) is replayed message by message through the real
auto-compression path: \`distill replay <file> --model ${MODEL} --context-window W --max-output ${opts.maxOutput}
--summarizer S --json\`, against a fresh SQLite file each time, exactly as a chat would compress. At the end the
final model context (system prompt, active summary, retained messages) is compared with the fixture's planted facts
(\`<name>.facts.json\`). A fact is **kept** when every one of its keywords occurs (case-insensitively) in the final
context; the "any keyword" column is the looser reading. Small windows are used on purpose: they force many cascaded
compressions, so early facts have to survive summary after summary.

Summarizers compared:

- \`extractive\`: the offline summarizer (\`src/main/engine/extractive/\`) — picks informative sentences (names,
  numbers, dates, money, identifiers, decisions, constraints, questions; novelty against what is already selected)
  under the summary's token target and keeps them in order with speaker labels; cascades through the previous summary.
- \`truncate\`: the naive baseline — drops the oldest messages with a marker and keeps only what fits.
- \`tiered\`: the tiered strategy (ADR 033 + Agent Zero: current topic 50% / topics 30% / bulk archives 20%, topic
  boundaries, attention compression, topic summaries, bulk merges), with local extractive summaries.
- \`importance\`: the importance strategy (Sigma ADR-006: paradigm shifts verbatim, important turns ~30%, routine
  ~10%), scored locally.

Facts planted late in a conversation usually survive any strategy because they are still in the retained verbatim
messages; the difference between strategies is in the early facts.

## Fixtures

${fixturesTable(fixtures)}

## Results

Windows ${opts.windows.map(num).join(', ')}, reserved output ${num(opts.maxOutput)}.

${overallTable(rows, opts.windows, opts.summarizers)}

${resultsTable(rows)}
`
}

/** The real-conversation section written by `npm run eval:real` (scripts/eval-real.mjs) survives a rerun. */
const REAL_START = '<!-- eval:real start -->'
const REAL_END = '<!-- eval:real end -->'
function keepRealSection(doc: string, next: string): string {
  if (!existsSync(doc)) return next
  const before = readFileSync(doc, 'utf8')
  const at = before.indexOf(REAL_START)
  const end = before.indexOf(REAL_END)
  return at >= 0 && end > at ? `${next.trimEnd()}\n\n${before.slice(at, end + REAL_END.length)}\n` : next
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2))
  checkCli(opts.cli)
  const fixtures = loadFixtures(opts.only)
  for (const f of fixtures) f.tokens = await countTokens(opts.cli, f.file)
  const rows: Row[] = []
  for (const f of fixtures) {
    for (const w of opts.windows) {
      for (const s of opts.summarizers) {
        if (!opts.json) process.stderr.write(`${f.name} W=${w} ${s} … `)
        const row = await evaluate(opts.cli, f, w, opts.maxOutput, s)
        rows.push(row)
        if (!opts.json)
          process.stderr.write(
            row.error ? `error: ${row.error}\n` : `${row.factsAll}/${row.facts} facts, ${row.seconds.toFixed(1)} s\n`
          )
      }
    }
  }
  if (opts.write) writeFileSync(opts.doc, keepRealSection(opts.doc, document(fixtures, rows, opts)))
  if (opts.json) {
    const fx = fixtures.map((f) => ({ name: f.name, messages: f.messages, tokens: f.tokens, facts: f.facts.length }))
    process.stdout.write(
      `${JSON.stringify({ model: MODEL, maxOutput: opts.maxOutput, fixtures: fx, rows }, null, 2)}\n`
    )
  } else {
    process.stdout.write(`${overallTable(rows, opts.windows, opts.summarizers)}\n\n${resultsTable(rows)}\n`)
    if (opts.write) process.stdout.write(`\nWrote ${opts.doc}\n`)
  }
  if (rows.every((r) => r.error)) process.exit(1)
}

main().catch((err: unknown) => fail((err as Error).stack ?? String(err)))
