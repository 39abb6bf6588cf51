#!/usr/bin/env node
/**
 * What long chats cost in input tokens, and whether the answers stay: replays the LoCoMo development
 * conversations (`../shared/data/locomo-dev` beside the project) through the real send path of
 * `distill serve` against the project's fake provider, in the OpenAI-compatible and Anthropic wire
 * formats, and reports per strategy the requests, input tokens, the share repeated from the previous
 * request and served from the cache, billed input (cached at 0.1×) against the append-only ideal, the
 * summary requests per 100 turns, and Recall's asked score on the same run.
 *
 *   npm run bench:cost [-- --project DIR] [--conversations 26,30] [--formats openai-compatible,anthropic]
 *                        [--strategies rolling,tiered,importance] [--windows 4096,16384] [--turns N]
 *                        [--questions N|all|0] [--no-typing] [--json] [--out FILE]
 *
 * `--project DIR` runs the app of another checkout (a worktree of an older commit, for a baseline);
 * the fake provider always comes from this one. The data, the home folder and the database live in a
 * temporary folder: the user's own chats and keys are never touched, and no real provider is called.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'
import { addMeasurements, catalogInputPrices, measureRequests } from './lib/measure-requests.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const argv = process.argv.slice(2)
const KNOWN = new Set([
  '--project',
  '--data',
  '--conversations',
  '--formats',
  '--strategies',
  '--windows',
  '--turns',
  '--questions',
  '--no-typing',
  '--json',
  '--out',
  '--keep'
])
const FLAGS = new Set(['--no-typing', '--json', '--keep'])
for (let i = 0; i < argv.length; i++) {
  if (!KNOWN.has(argv[i])) usage(`unknown option ${argv[i]}`)
  if (!FLAGS.has(argv[i])) i++
}
function usage(problem) {
  console.error(`bench-cost: ${problem}
usage: npm run bench:cost -- [--project DIR] [--data DIR] [--conversations 26,30]
         [--formats openai-compatible,anthropic] [--strategies rolling,tiered,importance]
         [--windows 16384] [--turns N] [--questions N|all|0] [--no-typing] [--json] [--out FILE] [--keep]`)
  process.exit(2)
}
const value = (name, fallback) => {
  const i = argv.indexOf(name)
  if (i < 0) return fallback
  if (argv[i + 1] === undefined) usage(`${name} needs a value`)
  return argv[i + 1]
}
const list = (name, fallback) =>
  value(name, fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

/** `../shared` beside the project; a worktree one level deeper finds it further up. */
function shared(...path) {
  for (let dir = dirname(ROOT); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', ...path)
    if (existsSync(candidate) || dirname(dir) === dir)
      return existsSync(candidate) ? candidate : resolve(ROOT, '..', 'shared', ...path)
  }
}

const MODELS = { 'openai-compatible': 'fake-model', anthropic: 'claude-sonnet-4-5' }
const project = resolve(value('--project', ROOT))
/** Each model's input price from the measured app's catalog: a summary written by a cheaper model is priced as such. */
const catalogFile = join(project, 'src', 'main', 'models', 'catalog.json')
const inputPrice = existsSync(catalogFile)
  ? catalogInputPrices(JSON.parse(readFileSync(catalogFile, 'utf8')))
  : () => undefined
const data = resolve(value('--data', shared('data', 'locomo-dev')))
const formats = list('--formats', 'openai-compatible,anthropic')
const strategies = list('--strategies', 'rolling,tiered,importance')
const windows = list('--windows', '16384').map(Number)
const turnCap = value('--turns') === undefined ? Infinity : Number(value('--turns'))
const questionsArg = value('--questions', 'all')
const typing = !argv.includes('--no-typing')
const asJson = argv.includes('--json')
const outFile = value('--out')
const keep = argv.includes('--keep')
for (const f of formats) if (!MODELS[f]) usage(`--formats takes ${Object.keys(MODELS).join(', ')}`)
for (const s of strategies) if (!['rolling', 'tiered', 'importance'].includes(s)) usage(`unknown strategy ${s}`)
if (windows.some((w) => !Number.isInteger(w) || w < 512)) usage('--windows takes whole numbers of tokens ≥ 512')
if (!(turnCap > 0)) usage('--turns takes a positive number')
if (questionsArg !== 'all' && !(Number(questionsArg) >= 0)) usage('--questions takes a number, all or 0')
// npx would look a missing `distill` up in the registry: only a checkout of Distill is run.
const projectName = (() => {
  try {
    return JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).name
  } catch {
    return undefined
  }
})()
if (projectName !== 'distill' || !existsSync(join(project, 'bin', 'distill.cjs')))
  usage(`${project} is not a checkout of Distill (no package.json named distill with bin/distill.cjs)`)

if (!existsSync(data)) {
  console.log(
    `Skipped the cost benchmark: ${data} does not exist (it lives beside the project, outside the repository).`
  )
  process.exit(0)
}
const wanted = value('--conversations')
  ?.split(',')
  .map((c) => c.trim().replace(/\.json$/, ''))
const files = readdirSync(data)
  .filter((f) => f.endsWith('.json'))
  .filter((f) => !wanted || wanted.includes(basename(f, '.json')))
  .sort()
if (files.length === 0) usage(`no conversation ${wanted?.join(', ') ?? ''} in ${data}`)

const log = (line) => process.stderr.write(`${line}\n`)
const pct = (x) => (typeof x === 'number' ? `${(100 * x).toFixed(1)}%` : '–')
const num = (x) => (typeof x === 'number' ? Math.round(x).toLocaleString('en-US') : '–')
const seconds = (since) => (Number(process.hrtime.bigint() - since) / 1e9).toFixed(0)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// ---------------------------------------------------------------- LoCoMo (as ../shared/eval/locomo-recall.mjs reads it)

const STOP = new Set(
  'a an the and or of to in on at for with her his their she he they it is was by from as that this be are were i my me you your we our its has have had did do does not no yes about into than then so what when where who whom which why how'.split(
    ' '
  )
)
const words = (s) =>
  String(s)
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !STOP.has(w))
function recall(answer, text, minus = new Set()) {
  const have = new Set(words(text).filter((w) => !minus.has(w)))
  const w = words(answer)
  return w.filter((x) => have.has(x)).length / (w.length || 1)
}

/** speaker_a is the user, speaker_b the assistant; a session's first turn carries its date. */
function conversationMessages(d) {
  const out = []
  const sessions = Object.keys(d)
    .filter((k) => /^session_\d+$/.test(k) && Array.isArray(d[k]))
    .sort((a, b) => +a.split('_')[1] - +b.split('_')[1])
  for (const s of sessions) {
    const when = d[`${s}_date_time`]
    d[s].forEach((t, i) => {
      let text = t.text
      if (t.blip_caption) text += ` [shares a photo: ${t.blip_caption}]`
      if (i === 0 && when) text = `(${when}) ${text}`
      out.push({ role: t.speaker === d.speaker_a ? 'user' : 'assistant', content: text })
    })
  }
  return out
}

/** User turns (consecutive same-speaker turns merged) with the assistant text that follows each. */
function conversationTurns(d) {
  const merged = []
  for (const m of conversationMessages(d)) {
    const last = merged.at(-1)
    if (last && last.role === m.role) last.content += `\n${m.content}`
    else merged.push({ ...m })
  }
  const turns = []
  for (let i = 0; i < merged.length; i++) {
    if (merged[i].role !== 'user') continue
    turns.push({ user: merged[i].content, reply: merged[i + 1]?.content ?? 'OK.' })
  }
  return turns
}

// ---------------------------------------------------------------- children

const children = new Set()
function killAll() {
  for (const child of children) {
    try {
      // Each child leads its own process group (npx starts node under it): end the group.
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      /* already gone */
    }
  }
  children.clear()
}
/** The temporary folder of this run (home, database); removed at the end unless --keep. */
let workDir
function removeWork() {
  if (!workDir) return
  if (keep) log(`kept ${workDir}`)
  else rmSync(workDir, { recursive: true, force: true })
  workDir = undefined
}
process.on('exit', killAll)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    log(`\nbench-cost: ${signal}, stopping.`)
    killAll()
    removeWork()
    process.exit(130)
  })
}

/** Spawns a child in its own process group and resolves with the first match of `pattern` in its stdout. */
function startChild(name, command, args, options, pattern, timeoutMs) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  let out = ''
  let err = ''
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${name} did not start within ${timeoutMs / 1000} s.\n${(out + err).trim().slice(-2000)}`))
    }, timeoutMs)
    child.stdout.on('data', (chunk) => {
      out += chunk
      const m = pattern.exec(out)
      if (m) {
        clearTimeout(timer)
        resolveStart({ child, match: m })
      }
    })
    child.stderr.on('data', (chunk) => {
      err += chunk
      // The build the CLI may run first, and warnings, are worth seeing.
      for (const line of String(chunk).split('\n')) if (line.trim()) log(`  [${name}] ${line}`)
    })
    child.on('exit', (code, signal) => {
      children.delete(child)
      clearTimeout(timer)
      const e = new Error(
        `${name} exited (${signal ?? `code ${code}`}) before it was ready.\n${(out + err).trim().slice(-2000)}`
      )
      e.exitCode = code
      reject(e)
    })
  })
}

async function startFake() {
  const base = [
    join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
    join(ROOT, 'e2e', 'fake-provider', 'cli.ts'),
    '--port',
    '0',
    '--quiet'
  ]
  const pattern = /Fake provider listening on (http:\/\/\S+)/
  try {
    const { child, match } = await startChild(
      'fake provider',
      process.execPath,
      [...base, '--auto-summaries'],
      { cwd: ROOT },
      pattern,
      60_000
    )
    return { child, url: match[1], autoSummaries: true }
  } catch (err) {
    // A fake provider without --auto-summaries answers with its usage (exit code 2).
    if (err.exitCode !== 2) throw err
    log('The fake provider has no --auto-summaries: summary requests get scripted steps of their own.')
    const { child, match } = await startChild('fake provider', process.execPath, base, { cwd: ROOT }, pattern, 60_000)
    return { child, url: match[1], autoSummaries: false }
  }
}

async function startDistill(env, dbFile) {
  const { child, match } = await startChild(
    'distill serve',
    'npx',
    ['--no-install', 'distill', 'serve', '--port', '0', '--db', dbFile],
    { cwd: project, env },
    /Distill is running at (http:\/\/[^/\s#]+)\/?#token=(\S+)/,
    600_000
  )
  return { child, url: match[1], token: match[2] }
}

// ---------------------------------------------------------------- talking to them

async function fakeCall(fake, path, body) {
  const res = await fetch(`${fake.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const json = await res.json()
  if (!res.ok) throw new Error(`fake provider ${path}: ${JSON.stringify(json).slice(0, 300)}`)
  return json
}

function rpcClient(server) {
  return async function rpc(method, input = {}) {
    const res = await fetch(`${server.url}/rpc/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input)
    })
    const answer = await res.json().catch(() => ({ ok: false, error: { message: `HTTP ${res.status}` } }))
    if (!answer.ok) {
      const e = new Error(`${method}: ${answer.error?.code ?? ''} ${answer.error?.message ?? ''}`.trim())
      e.code = answer.error?.code
      throw e
    }
    return answer.data
  }
}

/** GET /events: keeps the last state of every message it hears of, and wakes whoever waits. */
function subscribe(server) {
  const messages = new Map()
  const waiters = new Set()
  const ac = new AbortController()
  let alive = false
  void (async () => {
    try {
      const res = await fetch(`${server.url}/events`, {
        headers: { authorization: `Bearer ${server.token}` },
        signal: ac.signal
      })
      if (!res.ok || !res.body) return
      alive = true
      const decoder = new TextDecoder()
      let buffer = ''
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk, { stream: true })
        let at
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, at)
          buffer = buffer.slice(at + 2)
          for (const line of frame.split('\n')) {
            if (!line.startsWith('data: ')) continue
            try {
              const envelope = JSON.parse(line.slice(6))
              if (envelope.event === 'chat.message') messages.set(envelope.payload.message.id, envelope.payload.message)
            } catch {
              /* not ours to judge */
            }
          }
          for (const wake of waiters) wake()
        }
      }
    } catch {
      /* aborted, or the server went away: waiting falls back to polling */
    } finally {
      alive = false
    }
  })()
  return {
    messages,
    get alive() {
      return alive
    },
    /** Resolves on the next event or after `ms`, whichever is first. */
    next(ms) {
      return new Promise((r) => {
        const wake = () => {
          waiters.delete(wake)
          clearTimeout(timer)
          r()
        }
        const timer = setTimeout(wake, ms)
        waiters.add(wake)
      })
    },
    close: () => ac.abort()
  }
}

const done = (m) => m && m.status !== 'streaming'

/** Waits until the reply is no longer streaming (an event says so, or a page of the chat does). */
async function waitForReply(rpc, events, sessionId, replyId, timeoutMs = 300_000) {
  const until = Date.now() + timeoutMs
  let polled = Date.now()
  for (;;) {
    const heard = events.messages.get(replyId)
    if (done(heard)) return heard
    if (!events.alive || Date.now() - polled > 1000) {
      polled = Date.now()
      const page = await rpc('chat.messages', { sessionId, limit: 4 })
      const found = page.messages.find((m) => m.id === replyId)
      if (done(found)) return found
    }
    if (Date.now() > until) throw new Error(`the reply ${replyId} was still streaming after ${timeoutMs / 1000} s`)
    await events.next(events.alive ? 250 : 20)
  }
}

/** Waits for the chat's compressions, and a summary written ahead, to finish. */
async function settle(rpc, sessionId, timeoutMs = 300_000) {
  const until = Date.now() + timeoutMs
  let delay = 5
  for (;;) {
    const active = await rpc('compression.active', { sessionId })
    const usage = active.running ? undefined : await rpc('chat.context', { sessionId })
    if (usage && usage.preparedSummary?.state !== 'writing') return usage
    if (Date.now() > until) throw new Error(`the chat's compression was still running after ${timeoutMs / 1000} s`)
    await sleep(delay)
    delay = Math.min(200, delay * 2)
  }
}

/**
 * Without --auto-summaries, a summary request would take the next reply's scripted step: keep a few
 * steps queued that only summary requests take (their text is the fake's default reply).
 */
async function topUpSummarySteps(fake) {
  if (fake.autoSummaries) return
  const { pending } = await fakeCall(fake, '/__script', [])
  const want = 4 - pending
  if (want > 0)
    await fakeCall(
      fake,
      '/__script',
      Array.from({ length: want }, () => ({ for: 'summary' }))
    )
}

// ---------------------------------------------------------------- asked: the context built for each question

/**
 * Runs `distill context --session ID --message QUESTION --json` for every question in one child
 * process of the project's own CLI (read-only, alongside the server), which is the exact request
 * the question would make. (chat.context answers with counts, not the request's text.)
 */
const ASK_RUNNER = `
const { main } = require(require('node:path').join(process.cwd(), 'out', 'main', 'cli.js'))
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'))
process.stdout.setMaxListeners(0)
process.stderr.setMaxListeners(0)
const write = process.stdout.write.bind(process.stdout)
const exit = process.exit
;(async () => {
  for (const [i, question] of input.questions.entries()) {
    let out = ''
    let failed = null
    process.stdout.write = (chunk, ...rest) => { out += chunk; const cb = rest.find((x) => typeof x === 'function'); if (cb) cb(); return true }
    process.exit = (code) => { throw Object.assign(new Error('exit ' + code), { exitCall: true }) }
    try {
      await main(['node', 'distill', 'context', '--db', input.db, '--session', input.session, '--message', question, '--json'])
    } catch (e) { failed = e.exitCall ? 'the CLI failed (see its message above)' : String(e && e.message || e) }
    process.stdout.write = write
    process.exit = exit
    let result
    try { result = failed ? { i, error: failed } : { i, context: JSON.parse(out.slice(out.indexOf('{'))) } }
    catch (e) { result = { i, error: 'unreadable output: ' + out.slice(0, 200) } }
    write('@@ask ' + JSON.stringify(result) + '\\n')
  }
})().then(() => exit(0), (e) => { console.error(e); exit(1) })
`

function askQuestions(env, dbFile, sessionId, questions) {
  return new Promise((resolveAsk, reject) => {
    const child = spawn(process.execPath, ['-e', ASK_RUNNER], {
      cwd: project,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    children.add(child)
    const results = []
    let buffer = ''
    let err = ''
    child.stdout.on('data', (chunk) => {
      buffer += chunk
      let at
      while ((at = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, at)
        buffer = buffer.slice(at + 1)
        if (line.startsWith('@@ask ')) results.push(JSON.parse(line.slice(6)))
      }
    })
    child.stderr.on('data', (chunk) => (err += chunk))
    child.on('exit', (code) => {
      children.delete(child)
      if (code === 0) resolveAsk(results)
      else reject(new Error(`the asked-score child failed (${code}): ${err.trim().slice(-500)}`))
    })
    child.stdin.end(JSON.stringify({ db: dbFile, session: sessionId, questions }))
  })
}

const contextText = (ctx) =>
  ctx.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n')

// ---------------------------------------------------------------- one run

async function runOne({ fake, rpc, events, env, dbFile, file, conv, format, strategy, window }) {
  const started = process.hrtime.bigint()
  const label = `${format} ${strategy} ${window} ${file}`
  await fakeCall(fake, '/__reset', {})
  const turns = conv.turns.slice(0, turnCap)
  const session = await rpc('sessions.create', { title: `bench ${label}` })
  await rpc('sessions.update', {
    id: session.id,
    provider: format,
    modelId: MODELS[format],
    strategy,
    contextWindow: window,
    ...(recallForced ? { recall: true } : {})
  })
  const budget = (await rpc('chat.context', { sessionId: session.id })).budget
  const errors = []
  let progressAt = 0
  for (const [i, turn] of turns.entries()) {
    await topUpSummarySteps(fake)
    await fakeCall(fake, '/__script', [{ reply: turn.reply }])
    // What the window does while the user types: the meter, and (once typing pauses) what the draft would recall.
    if (typing) {
      await rpc('chat.context', { sessionId: session.id, draft: turn.user })
      await rpc('chat.context', { sessionId: session.id, draft: turn.user, recall: true })
      await settle(rpc, session.id)
    }
    let sent
    try {
      sent = await rpc('chat.send', { sessionId: session.id, text: turn.user })
    } catch (err) {
      errors.push(`turn ${i + 1}: ${err.message}`)
      if (err.code === 'busy') await settle(rpc, session.id)
      continue
    }
    const reply = await waitForReply(rpc, events, session.id, sent.reply.id)
    if (reply.status !== 'complete')
      errors.push(`turn ${i + 1}: the reply is ${reply.status}${reply.error ? `: ${reply.error.message}` : ''}`)
    await settle(rpc, session.id)
    if (process.stderr.isTTY && Date.now() - progressAt > 500) {
      progressAt = Date.now()
      process.stderr.write(`\r  ${label}: turn ${i + 1}/${turns.length} (${seconds(started)} s)   `)
    }
  }
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K')
  const usage = await settle(rpc, session.id)
  // Anything still on its way (a title, a summary in the background) lands before the log is read.
  let recorded = await fakeCall(fake, '/__requests')
  for (let stable = 0; stable < 3;) {
    await sleep(100)
    const again = await fakeCall(fake, '/__requests')
    stable = again.length === recorded.length ? stable + 1 : 0
    recorded = again
  }
  const measured = measureRequests(recorded, { turns: turns.length, inputPrice })
  const replaySeconds = Number(seconds(started))

  // Asked: the context built for each question, as the next message of this chat.
  const qas = conv.qas
  const n = questionsArg === 'all' ? qas.length : Math.min(Number(questionsArg), qas.length)
  const chosen = Array.from({ length: n }, (_, k) => qas[Math.floor((k * qas.length) / n)])
  let asked = null
  let askedN = 0
  const askStarted = process.hrtime.bigint()
  if (chosen.length > 0) {
    const results = await askQuestions(
      env,
      dbFile,
      session.id,
      chosen.map((q) => q.question)
    )
    let sum = 0
    for (const r of results) {
      if (r.error) {
        errors.push(`question ${r.i + 1}: ${r.error}`)
        continue
      }
      const q = chosen[r.i]
      sum += recall(q.answer, contextText(r.context), new Set(words(q.question)))
      askedN++
    }
    asked = askedN ? sum / askedN : null
  }
  const askSeconds = Number(seconds(askStarted))
  const { perRequest, ...totals } = measured
  const result = {
    conversation: file,
    format,
    model: MODELS[format],
    strategy,
    window,
    budget: { window: budget.window, reservedOutput: budget.reservedOutput, usable: budget.usable },
    sessionId: session.id,
    turns: turns.length,
    ...totals,
    finalContextTokens: usage.tokens,
    summarizedMessages: usage.summarizedMessages,
    asked,
    askedQuestions: askedN,
    askedSum: asked === null ? 0 : asked * askedN,
    errors,
    replaySeconds,
    askSeconds,
    perRequest
  }
  log(
    `  ${label}: ${turns.length} turns, ${measured.requests} requests (${measured.summaryRequests} summaries), ` +
      `billed ${num(measured.billed)} vs ideal ${num(measured.idealBilled)} (×${(measured.billedOverIdeal ?? 0).toFixed(2)}), ` +
      `asked ${pct(asked)} over ${askedN}; replay ${replaySeconds} s, questions ${askSeconds} s` +
      (errors.length ? `; ${errors.length} problems, first: ${errors[0]}` : '')
  )
  return result
}

// ---------------------------------------------------------------- main

const commit = (() => {
  try {
    const id = execFileSync('git', ['-C', project, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore']
    }).trim()
    const dirty = execFileSync('git', ['-C', project, 'status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore']
    }).trim()
    return dirty ? `${id} with uncommitted changes` : id
  } catch {
    return 'unknown commit'
  }
})()

const conversations = files.map((file) => {
  const d = JSON.parse(readFileSync(join(data, file), 'utf8'))
  return {
    file,
    turns: conversationTurns(d),
    qas: d.qa.filter((q) => q.category !== 5 && q.answer !== undefined)
  }
})

const work = mkdtempSync(join(tmpdir(), 'distill-bench-cost-'))
workDir = work
const home = join(work, 'home')
const dbFile = join(work, 'distill.db')
let recallForced = false
const benchStarted = process.hrtime.bigint()
const runs = []
let fake
let server
let events
try {
  log(`bench-cost: ${project} (${commit}); ${files.join(', ')}; work folder ${work}`)
  fake = await startFake()
  const env = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    DISTILL_DB: dbFile,
    OPENAI_COMPATIBLE_BASE_URL: `${fake.url}/v1`,
    OPENAI_COMPATIBLE_API_KEY: 'sk-bench-fake',
    ANTHROPIC_BASE_URL: `${fake.url}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-bench-fake'
  }
  for (const name of [
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'GOOGLE_GENERATIVE_AI_API_KEY',
    'GOOGLE_GENERATIVE_AI_BASE_URL'
  ])
    delete env[name]
  const serveStarted = process.hrtime.bigint()
  try {
    server = await startDistill(env, dbFile)
  } catch (err) {
    throw new Error(`Distill did not start in ${project} (npx --no-install distill serve): ${err.message}`)
  }
  log(`distill serve is up at ${server.url} (${seconds(serveStarted)} s); fake provider at ${fake.url}`)
  const rpc = rpcClient(server)
  events = subscribe(server)
  const settings = await rpc('settings.get')
  if (settings.recallEnabled) log('Recall: on (the app default), summarizer: ' + settings.summarizer)
  else {
    recallForced = true
    log('Recall is off by default here: each chat turns it on for itself.')
  }
  for (const window of windows)
    for (const format of formats)
      for (const strategy of strategies)
        for (const conv of conversations)
          runs.push(await runOne({ fake, rpc, events, env, dbFile, file: conv.file, conv, format, strategy, window }))
} catch (err) {
  log(`\nbench-cost: ${err.message}`)
  process.exitCode = 1
} finally {
  events?.close()
  killAll()
  removeWork()
}
if (runs.length === 0) process.exit(process.exitCode ?? 1)

// ---------------------------------------------------------------- report

const cacheReported = runs.some((r) => r.cacheReadTokens !== null)
function rowsFor(window) {
  const rows = []
  for (const format of formats)
    for (const strategy of strategies) {
      const group = runs.filter((r) => r.window === window && r.format === format && r.strategy === strategy)
      if (group.length === 0) continue
      const sum = addMeasurements(group)
      const askedN = group.reduce((s, r) => s + r.askedQuestions, 0)
      rows.push({
        format,
        strategy,
        window,
        conversations: group.length,
        ...sum,
        asked: askedN ? group.reduce((s, r) => s + r.askedSum, 0) / askedN : null,
        askedQuestions: askedN,
        errors: group.reduce((s, r) => s + r.errors.length, 0),
        seconds: group.reduce((s, r) => s + r.replaySeconds + r.askSeconds, 0)
      })
    }
  return rows
}

const tables = windows.map((window) => {
  const rows = rowsFor(window)
  const lines = [
    `### ${num(window)}-token window`,
    '',
    '| Format | Strategy | Requests (summaries) | Input tokens | Prefix repeat | Cache-served | Billed | Ideal billed | Billed / ideal | Priced / ideal | Billed, writes ×1.25 | Summaries /100 turns | Asked |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.format} | ${r.strategy} | ${num(r.requests)} (${num(r.summaryRequests)}) | ${num(r.inputTokens)} | ${pct(r.prefixShare)} | ${pct(r.cacheShare)} | ${num(r.billed)} | ${num(r.idealBilled)} | ×${(r.billedOverIdeal ?? 0).toFixed(2)} | ×${(r.pricedOverIdeal ?? 0).toFixed(2)} | ${r.cacheWriteTokens === null ? '–' : num(r.billedWithWrites)} | ${r.summariesPer100Turns === null ? '–' : r.summariesPer100Turns.toFixed(1)} | ${pct(r.asked)} |`
    )
  ]
  return { window, rows, text: lines.join('\n') }
})
const turnsTotal = [...new Map(runs.map((r) => [r.conversation, r.turns])).values()].reduce((s, n) => s + n, 0)
const notes = [
  `Distill at ${commit}${project === ROOT ? '' : ` (${project})`}; ${files.join(', ')}${Number.isFinite(turnCap) ? `, first ${turnCap} turns` : ''} (${num(turnsTotal)} user turns per format and strategy); questions per conversation: ${questionsArg}.`,
  `Cached input is billed at 0.1×: ${cacheReported ? "the fake provider's report (cache.read) where it gives one, else" : 'the fake provider reports no cache, so'} the prefix each reply request repeats from the previous one. Ideal: every reply request cached up to its last two messages. Summary requests are billed like replies where the fake reports what its cache served (a summary asked inside the chat's request), else whole; they are not in the ideal. Priced: each request's billed input at its model's input price from the catalog, in the chat model's input tokens (the catalog has Claude Sonnet write its summaries with Claude Haiku, a third of the price).`
]
const markdown = `${tables.map((t) => t.text).join('\n\n')}\n\n${notes.join('\n')}\n`
log(`bench-cost: done in ${seconds(benchStarted)} s`)
if (outFile) writeFileSync(resolve(outFile), markdown)
if (asJson) {
  process.stdout.write(
    `${JSON.stringify(
      {
        project,
        commit,
        fakeAutoSummaries: fake?.autoSummaries ?? null,
        cacheReported,
        typing,
        tables: tables.map((t) => ({ window: t.window, rows: t.rows })),
        runs
      },
      null,
      2
    )}\n`
  )
} else process.stdout.write(`\n${markdown}`)
process.exit(process.exitCode ?? 0)
