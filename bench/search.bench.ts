// Full-text search per chat: one database holding a 100,000-message chat and a 10-message chat.
// `npx vitest bench --run bench/search.bench.ts`. The baseline is the index as it was before
// drizzle/0011 (the chat id UNINDEXED, chats filtered by a join after FTS5 has matched every chat),
// built in the same database from the same text and queried with the same SQL as before.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { openDatabase } from '../src/main/db/client'
import { ftsQuery, searchMessages, searchSummarized } from '../src/main/db/repositories/search-repo'
import { recallQuery } from '../src/main/engine/recall/recall-query'
import { isMeasuring, warmedUp } from './measured'

const BIG = 100_000
const dir = mkdtempSync(join(tmpdir(), 'distill-search-bench-'))
const handle = openDatabase(join(dir, 'search.db'))
const { db, sqlite } = handle

// Deterministic text with a natural spread: a few very common words, a long tail of rare ones.
function rng(seed: number) {
  // mulberry32: integer arithmetic, so the sequence does not collapse into a short cycle.
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}
const COMMON =
  'the a of to and in that is for it with as was on be by this are from or have an they which you one had not but what all were when we there can been has more if will would their so about into some could them other than then its only also new these two may first any like use should how each most where'.split(
    ' '
  )
const SYLLABLES = 'ka lo mi ne ru sa te vo zi pa de fo gu hi ja le mo nu po ri su ta ve wi xo yu ba ce di fe'.split(' ')
function vocabulary(n: number, r: () => number): string[] {
  const words = new Set<string>(['function', 'value', 'error', 'deploy', 'staging', 'database'])
  while (words.size < n)
    words.add(
      Array.from({ length: 2 + Math.floor(r() * 3) }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join('')
    )
  return [...words]
}
function messages(n: number, seed: number): string[] {
  const r = rng(seed)
  const rare = vocabulary(4_000, r)
  // Zipf-like: word k of the tail is drawn with weight ~1/k.
  const word = () => (r() < 0.45 ? COMMON[Math.floor(r() * COMMON.length)]! : rare[Math.floor(rare.length ** r()) - 1]!)
  return Array.from({ length: n }, () => Array.from({ length: 8 + Math.floor(r() * 60) }, word).join(' ') + '.')
}

function fill(sessionId: string, texts: string[]) {
  sqlite
    .prepare('INSERT INTO sessions (id, title, created_at, updated_at, archived) VALUES (?, ?, 1, 1, 0)')
    .run(sessionId, sessionId)
  const insert = sqlite.prepare(
    `INSERT INTO chat_messages (id, session_id, seq, role, parts, status, created_at, part_count, has_tool_parts)
     VALUES (?, ?, ?, ?, ?, 'complete', 1, 1, 0)`
  )
  sqlite.transaction(() => {
    texts.forEach((text, i) =>
      insert.run(
        `${sessionId}:${i + 1}`,
        sessionId,
        i + 1,
        i % 2 ? 'assistant' : 'user',
        JSON.stringify([{ type: 'text', text }])
      )
    )
  })()
}

const big = '0190a1b2-0000-7000-8000-000000000001'
const small = '0190a1b2-0000-7000-8000-000000000002'
fill(big, messages(BIG, 7))
fill(small, messages(10, 11))

// The index as it was: same text and tokenizer, the chat id UNINDEXED.
sqlite.exec(`
  CREATE VIRTUAL TABLE old_fts USING fts5(text, message_id UNINDEXED, session_id UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2');
  INSERT INTO old_fts (rowid, text, message_id, session_id)
    SELECT f.rowid, f.text, f.message_id, m.session_id FROM messages_fts f JOIN chat_messages m ON m.rid = f.rowid;`)

/** The history search and its count, as they ran before (FR-6.3). */
const oldRows = sqlite.prepare(`
  SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt,
         snippet(old_fts, 0, char(2), char(3), '…', 24) AS snippet
    FROM old_fts JOIN chat_messages m ON m.rid = old_fts.rowid
   WHERE old_fts MATCH ? AND m.session_id = ? AND m.hidden_in IS NULL
   ORDER BY m.seq LIMIT 200`)
const oldCount = sqlite.prepare(`
  SELECT count(*) AS n FROM old_fts JOIN chat_messages m ON m.rid = old_fts.rowid
   WHERE old_fts MATCH ? AND m.session_id = ? AND m.hidden_in IS NULL`)
function oldSearch(sessionId: string, query: string) {
  const match = ftsQuery(query)!
  return { rows: oldRows.all(match, sessionId), total: (oldCount.get(match, sessionId) as { n: number }).n }
}
/** Recall's query, as it ran before (DESIGN §11). */
const oldRecallSql = sqlite.prepare(`
  SELECT m.id AS messageId, m.seq AS seq, m.role AS role, m.created_at AS createdAt, old_fts.text AS text, bm25(old_fts) AS score
    FROM old_fts JOIN chat_messages m ON m.rid = old_fts.rowid
   WHERE old_fts MATCH ? AND m.session_id = ? AND m.seq < ? AND m.hidden_in IS NULL
     AND m.role IN ('user', 'assistant') AND m.status IN ('complete', 'aborted')
   ORDER BY score LIMIT 24`)

const RECALL = recallQuery('What did we decide about the staging database deploy and that function value error?')!

const timings = new Map<string, number[]>()
function timed<T>(label: string, fn: () => T): T {
  const t0 = performance.now()
  const out = fn()
  if (isMeasuring()) timings.set(label, [...(timings.get(label) ?? []), performance.now() - t0])
  return out
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

// Both sides must find the same messages, or the comparison means nothing.
for (const [sessionId, query] of [
  [small, 'value'],
  [small, 'th'],
  [big, 'staging database']
] as const) {
  const before = oldSearch(sessionId, query)
  const after = searchMessages(db, sessionId, query)
  if (
    before.total !== after.total ||
    JSON.stringify(before.rows.map((r) => (r as { seq: number }).seq)) !== JSON.stringify(after.rows.map((r) => r.seq))
  ) {
    throw new Error(`The old and new index disagree on "${query}" in ${sessionId}`)
  }
}

// Hundreds of runs a row for most; the slowest (recall before, ~0.4 s) still gets a few after its warm-up.
const opts = warmedUp({ time: 500, warmupTime: 100 })
const cases = [
  { label: 'typed search "value", 10-message chat', sessionId: small, query: 'value' },
  { label: 'typed search "th" (short prefix), 10-message chat', sessionId: small, query: 'th' },
  { label: 'typed search "staging database", 100k chat', sessionId: big, query: 'staging database' }
]
for (const c of cases) {
  describe(c.label, () => {
    bench(
      'before: chat UNINDEXED, filtered after the match',
      async () => void timed(`${c.label} before`, () => oldSearch(c.sessionId, c.query)),
      opts
    )
    bench(
      'after: chat column in the MATCH',
      async () => void timed(`${c.label} after`, () => searchMessages(db, c.sessionId, c.query)),
      opts
    )
  })
}
describe('recall in the 10-message chat (16-term OR query)', () => {
  bench(
    'before: chat UNINDEXED, filtered after the match',
    async () => void timed('recall in the 10-message chat before', () => oldRecallSql.all(RECALL, small, 1_000_000)),
    opts
  )
  bench(
    'after: chat column in the MATCH',
    async () =>
      void timed('recall in the 10-message chat after', () =>
        searchSummarized(db, small, RECALL, { beforeSeq: 1_000_000, limit: 24 })
      ),
    opts
  )
})

afterAll(() => {
  const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`)
  const lines = [...cases.map((c) => c.label), 'recall in the 10-message chat'].map((label) => {
    const before = median(timings.get(`${label} before`) ?? [])
    const after = median(timings.get(`${label} after`) ?? [])
    return `  ${label.padEnd(52)} ${fmt(before).padStart(9)} → ${fmt(after).padStart(9)}   ${(before / after).toFixed(1).padStart(6)}x`
  })
  console.log(
    [
      '',
      `Search per chat (median; one database: ${BIG.toLocaleString('en')}-message chat + 10-message chat)`,
      ...lines,
      ''
    ].join('\n')
  )
  handle.close()
  rmSync(dir, { recursive: true, force: true })
}, 120_000)
