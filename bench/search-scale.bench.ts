// Search across chats and the chat list at scale: one database of 1,000,000 messages in 5,000 chats
// (SEARCH_SCALE_CHATS × SEARCH_SCALE_PER_CHAT to change it), written with SQL in one transaction and
// indexed in one statement, not through the app. `npx vitest bench --run bench/search-scale.bench.ts`.
// The baseline is the search as the previous version ran it, the same job on the same database in
// the same run: the sidebar's query (the best SEARCH_PASSAGES passages of each chat and the totals),
// a common query ranked by bm25 over its newest 2,000 matches, the whole words then the prefixes.
// "now" is searchChats; beside each, what the sidebar then says ("5,000+ matches in 6+ chats", the
// chats listed), since a common word's answer is a bounded part of what matches. The goal line
// compares every figure beside it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, bench, describe } from 'vitest'
import { openDatabase } from '../src/main/db/client'
import { ftsQuery } from '../src/main/db/repositories/search-repo'
import { searchChats } from '../src/main/db/repositories/chat-search-repo'
import { listSessions } from '../src/main/db/repositories/sessions-repo'
import { SEARCH_PASSAGES } from '../src/shared/contract/sessions'
import { fmtMs, goalLine } from './goal'

const CHATS = Number(process.env.SEARCH_SCALE_CHATS ?? 5_000)
const PER_CHAT = Number(process.env.SEARCH_SCALE_PER_CHAT ?? 200)
const dir = mkdtempSync(join(tmpdir(), 'distill-search-scale-'))
const handle = openDatabase(join(dir, 'scale.db'))
const { db, sqlite } = handle

function rng(seed: number) {
  // mulberry32
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}
const r = rng(7)
const COMMON =
  'the a of to and in that is for it with as was on be by this are from or have an they which you one had not but what all were when we there can been has more if will would their so about into some could them other than then its only also new these two may first any like use should how each most where'.split(
    ' '
  )
const SYLLABLES = 'ka lo mi ne ru sa te vo zi pa de fo gu hi ja le mo nu po ri su ta ve wi xo yu ba ce di fe'.split(' ')
const tail = new Set<string>()
while (tail.size < 20_000)
  tail.add(
    Array.from({ length: 2 + Math.floor(r() * 3) }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join('')
  )
const rare = [...tail]
// Common English words, three topic words in 3–17% of messages, and a Zipf-like tail of rare ones.
function word(): string {
  const x = r()
  if (x < 0.45) return COMMON[Math.floor(r() * COMMON.length)]!
  if (x < 0.455) return 'alpha'
  if (x < 0.458) return 'lighthouse'
  if (x < 0.461) return 'mackerel'
  return rare[Math.floor(rare.length ** r()) - 1]!
}

const t0 = performance.now()
// The full-text triggers index row by row; one INSERT … SELECT afterwards is several times faster.
const triggers = sqlite
  .prepare(
    `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'chat_messages' AND name LIKE '%fts%'`
  )
  .all() as Array<{ name: string; sql: string }>
for (const t of triggers) sqlite.exec(`DROP TRIGGER ${t.name}`)
const insertSession = sqlite.prepare(
  'INSERT INTO sessions (id, title, created_at, updated_at, archived) VALUES (?, ?, ?, ?, 0)'
)
const insertMessage = sqlite.prepare(
  `INSERT INTO chat_messages (id, session_id, seq, role, parts, status, created_at, part_count, has_tool_parts) VALUES (?, ?, ?, ?, ?, 'complete', ?, 1, 0)`
)
sqlite.transaction(() => {
  for (let c = 0; c < CHATS; c++) {
    const id = `0190a1b2-0000-7000-8000-${String(c).padStart(12, '0')}`
    insertSession.run(id, `Chat ${c}`, c * 1000, c * 1000 + PER_CHAT)
    for (let i = 1; i <= PER_CHAT; i++) {
      const text = `${Array.from({ length: 8 + Math.floor(r() * 60) }, word).join(' ')}.`
      insertMessage.run(
        `${id}:${i}`,
        id,
        i,
        i % 2 ? 'user' : 'assistant',
        JSON.stringify([{ type: 'text', text }]),
        c * 1000 + i
      )
    }
  }
})()
sqlite.exec(`INSERT INTO messages_fts (rowid, text, message_id, chat)
  SELECT rid, json_extract(parts, '$[0].text'), id, replace(session_id, '-', '') FROM chat_messages`)
for (const t of triggers) sqlite.exec(t.sql)
const setupS = (performance.now() - t0) / 1000

/**
 * The search across chats as the previous version ran it: bm25 over the newest 2,000 matches (its
 * idf walks every match of each word), the whole words, then the prefixes when those do not fill them.
 */
function searchBefore(query: string, passages: number, limit = 50) {
  const rank = (match: string) => {
    const best = db.all<{ rid: number; sessionId: string; window: number; chatTotal: number; matchTotal: number }>(sql`
      WITH newest AS MATERIALIZED (
        SELECT rowid AS rid, bm25(messages_fts, 1, 0, 0) AS rank FROM messages_fts
         WHERE messages_fts MATCH ${match} ORDER BY rowid DESC LIMIT 2000
      ), hits AS (
        SELECT n.rid, n.rank, m.session_id AS sessionId, m.id AS messageId, m.seq, m.role, m.created_at AS createdAt
          FROM newest n CROSS JOIN chat_messages m ON m.rid = n.rid WHERE m.hidden_in IS NULL
      ), ranked AS MATERIALIZED (
        SELECT *, row_number() OVER (PARTITION BY sessionId ORDER BY rank, rid DESC) AS n,
               count(*) OVER (PARTITION BY sessionId) AS matches FROM hits
      ), chats AS MATERIALIZED (
        SELECT r.sessionId, r.rank AS best, r.matches, s.updated_at AS updatedAt
          FROM ranked r JOIN sessions s ON s.id = r.sessionId WHERE r.n = 1 AND s.archived = 0
      ), top AS (SELECT * FROM chats ORDER BY best, updatedAt DESC LIMIT ${limit})
      SELECT r.rid, r.sessionId, r.messageId, r.seq, r.role, r.createdAt, r.rank, t.matches,
             (SELECT count(*) FROM newest) AS window, (SELECT count(*) FROM chats) AS chatTotal,
             (SELECT coalesce(sum(matches), 0) FROM chats) AS matchTotal
        FROM top t JOIN ranked r ON r.sessionId = t.sessionId AND r.n <= ${passages}
       ORDER BY t.best, t.updatedAt DESC, r.n`)
    if (best.length > 0) {
      const rids = best.map((r) => r.rid)
      db.all(sql`
        SELECT rowid AS rid, snippet(messages_fts, 0, char(2), char(3), '…', 12) AS snippet FROM messages_fts
         WHERE messages_fts MATCH ${match} AND rowid BETWEEN ${sql.raw(String(Math.min(...rids)))} AND ${sql.raw(String(Math.max(...rids)))}
           AND +rowid IN (${sql.join(
             rids.map((rid) => sql`${rid}`),
             sql`, `
           )})`)
    }
    const full = (best[0]?.window ?? 0) >= 2000
    return {
      rows: [...new Set(best.map((r) => r.sessionId))],
      chats: best[0]?.chatTotal ?? 0,
      matches: best[0]?.matchTotal ?? 0,
      countIsLowerBound: full
    }
  }
  const whole = rank(`text : (${ftsQuery(query, { prefix: false })!})`)
  return whole.countIsLowerBound ? whole : rank(`text : (${ftsQuery(query)!})`)
}

const matchCount = (query: string) =>
  db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ${`text : (${ftsQuery(query)!})`}`
  )!.n
/** A word of the tail found in a handful of messages (the tail's end is too rare to be drawn at all). */
const rareWord = rare.findLast((w) => matchCount(w) >= 3)!
const QUERIES = [
  { label: 'common word "alpha"', query: 'alpha' },
  { label: 'two common words "lighthouse mackerel"', query: 'lighthouse mackerel' },
  { label: 'the commonest word "the"', query: 'the' },
  { label: 'a common word half typed "alph"', query: 'alph' },
  { label: `rare word "${rareWord}"`, query: rareWord }
].map((q) => ({ ...q, matches: matchCount(q.query) }))

const timings = new Map<string, number[]>()
/** What the sidebar says of each query's answer, before and now. */
const said = new Map<string, string>()
function say(label: string, found: { rows: unknown[]; chats: number; matches: number; countIsLowerBound: boolean }) {
  const more = found.countIsLowerBound ? '+' : ''
  said.set(
    label,
    `${found.matches.toLocaleString('en')}${more} matches in ${found.chats.toLocaleString('en')}${more} chats, ${found.rows.length} listed`
  )
}
/** Wall time, and the process's CPU time beside it (`label cpu`): on a shared machine the two part. */
function timed<T>(label: string, fn: () => T): T {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const out = fn()
  timings.set(label, [...(timings.get(label) ?? []), performance.now() - start])
  const used = process.cpuUsage(cpu)
  timings.set(`${label} cpu`, [...(timings.get(`${label} cpu`) ?? []), (used.user + used.system) / 1000])
  return out
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const few = { time: 0, iterations: 5, warmupIterations: 1, warmupTime: 0 }

for (const q of QUERIES) {
  describe(`search across chats, ${q.label}`, () => {
    bench(
      'before: the previous search, bm25 over the newest 2,000 matches',
      () =>
        say(
          `${q.label} before`,
          timed(`${q.label} before`, () => searchBefore(q.query, SEARCH_PASSAGES))
        ),
      few
    )
    bench(
      'best message per chat: newest matches ranked, best first',
      () => void timed(`${q.label} one`, () => searchChats(db, q.query)),
      few
    )
    bench(
      `now: the best ${SEARCH_PASSAGES} passages per chat, with the totals`,
      () =>
        say(
          `${q.label} now`,
          timed(`${q.label} now`, () => searchChats(db, q.query, { passages: SEARCH_PASSAGES }))
        ),
      few
    )
  })
}
describe('the chat list', () => {
  bench('before: every chat in one call', () => void timed('list before', () => listSessions(db)), few)
  bench(
    'now: the first page (100 chats)',
    () => void timed('list now', () => listSessions(db, undefined, { limit: 101 })),
    few
  )
})

afterAll(() => {
  const m = (k: string) => median(timings.get(k) ?? [])
  const total = CHATS * PER_CHAT
  const line = (label: string, key: string) =>
    `  ${label.padEnd(70)} ${fmtMs(m(`${key} before`)).padStart(9)} → ${fmtMs(m(`${key} now`)).padStart(9)}   ${(m(`${key} before`) / m(`${key} now`)).toFixed(1).padStart(6)}x   (CPU ${fmtMs(m(`${key} before cpu`))} → ${fmtMs(m(`${key} now cpu`))})${
      timings.has(`${key} one`) ? `   best message only ${fmtMs(m(`${key} one`))}` : ''
    }`
  console.log(
    [
      '',
      `Search and chat list at scale (median of runs; ${total.toLocaleString('en')} messages in ${CHATS.toLocaleString('en')} chats, written in ${setupS.toFixed(0)} s; before → now, same run;`,
      `wall time, with the process's CPU time in brackets: on a machine shared with other work the wall time also holds waiting)`,
      ...QUERIES.flatMap((q) => [
        line(`${q.label} (${q.matches.toLocaleString('en')} matching messages)`, q.label),
        `      says: before "${said.get(`${q.label} before`)}" → now "${said.get(`${q.label} now`)}"`
      ]),
      line('sessions.list: every chat → the first page of 100', 'list'),
      goalLine(
        `any search at ${total.toLocaleString('en')} messages`,
        50,
        QUERIES.map((q) => [q.label, m(`${q.label} now`)] as const)
      ),
      ''
    ].join('\n')
  )
  handle.close()
  rmSync(dir, { recursive: true, force: true })
})
