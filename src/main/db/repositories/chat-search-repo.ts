import type Database from 'better-sqlite3'
import { sql } from 'drizzle-orm'
import type { Db } from '../client'
import { sqliteClient } from './sqlite-client'
import { ftsQuery, inText } from './search-repo'

/** One matching message of a chat found by a search across chats. */
export interface PassageRow {
  messageId: string
  seq: number
  role: string
  createdAt: number
  /** The passage around the match, matched words wrapped in \u0002 … \u0003. */
  snippet: string
}

export interface ChatMatchRow {
  sessionId: string
  /** The chat's best-ranked matching messages, best first (at most `passages`). */
  passages: PassageRow[]
  /** How many of the chat's messages match (among the ranked ones: see `countIsLowerBound`). */
  matches: number
  /** The query matched more messages than are ranked, so the chat may hold more than `matches`. */
  countIsLowerBound: boolean
  /** bm25 of the best message (lower is better). */
  rank: number
}

/** The chats a search across chats found, and how many matched in all (not only those returned). */
export interface ChatSearch {
  rows: ChatMatchRow[]
  /** Chats with a matching message, with the `titled` ones (a title match) counted once. */
  chats: number
  /**
   * Matching messages in all those chats; for a common query, at least this many in the whole index
   * (counted up to COUNTED_MATCHES, less every message a search never lists).
   */
  matches: number
  /** A common query: only its newest RANKED_MATCHES matches were ranked, so there may be more of both. */
  countIsLowerBound: boolean
}

export interface ChatSearchOptions {
  /** Chats returned, best first. */
  limit?: number
  /** Matching messages returned per chat, best first. */
  passages?: number
  /** Matching messages ranked (the newest ones): see RANKED_MATCHES. */
  ranked?: number
  /**
   * Chats found by their title: returned first when their messages match too (so a title match
   * still gets its passages), and counted once in `chats`.
   */
  titled?: readonly string[]
}

/**
 * How many matching messages a search across chats ranks: all of them, by bm25, up to this many;
 * else the newest this many, by length (commonChats). bm25 reads every match's positions, and
 * before its first row it counts every message holding each word (its idf): for a word in most
 * messages that alone walks the word's whole doclist (6–9 ms at 1,000,000 messages, per word).
 */
export const RANKED_MATCHES = 1_000

/**
 * How far a common query's matches are counted for its total ("5,000+ matches"): FTS5 walks the
 * doclist this far in the same statement, ranking and reading nothing (0.5–3 ms at 1,000,000 messages).
 */
export const COUNTED_MATCHES = 5_000

/**
 * Full-text search across every chat: per chat its best messages, best chats first. A query in at
 * most RANKED_MATCHES messages is ranked by bm25 over all of them. A commoner one is ranked over
 * its newest RANKED_MATCHES and says so (`countIsLowerBound`), its total counted over the whole
 * index up to COUNTED_MATCHES, so the cost stays flat however large the database or common the
 * word. The words are looked up whole first: when they alone fill the ranked matches, the words
 * they begin (typed-ahead prefixes) are not needed, and a prefix term is what costs (each MATCH
 * merges the doclists of every word it begins: 5–10 ms at 1,000,000 messages). Otherwise the
 * prefixes are searched, as typed.
 */
export function searchChats(db: Db, query: string, options: ChatSearchOptions = {}): ChatSearch {
  const words = ftsQuery(query, { prefix: false })
  if (!words) return { rows: [], chats: options.titled?.length ?? 0, matches: 0, countIsLowerBound: false }
  // The common query's statement says itself whether the query is common (a prefix term merges its
  // doclists once per MATCH). A whole word that does not fill the ranked matches is searched again
  // with the prefixes, which find everything it finds.
  const whole = commonChats(db, inText(words), options)
  if (whole) return whole
  const typed = inText(ftsQuery(query)!)
  return commonChats(db, typed, options, markedPrefixes(query)) ?? rankChats(db, typed, options)
}

/** Statements run on every keystroke of a search, prepared once per connection (parsing one took 0.3–0.6 ms). */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>()

function prepared(db: Db, text: string): Database.Statement {
  const client = sqliteClient(db)
  const own = statements.get(client) ?? new Map<string, Database.Statement>()
  statements.set(client, own)
  let statement = own.get(text)
  if (!statement) {
    statement = client.prepare(text)
    own.set(text, statement)
  }
  return statement
}

/** Byte `i` of FTS5's docsize record, from its hex digits (SQL has no byte access to a blob). */
const docsizeByte = (i: number) =>
  `((instr('0123456789ABCDEF', substr(hex(substr(d.sz, ${i}, 1)), 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(hex(substr(d.sz, ${i}, 1)), 2, 1)) - 1)`

/**
 * commonChats' statement: the newest @counted matches counted, the newest @ranked of them with their
 * chats and lengths (the first varint of the docsize record: the text column's tokens, two bytes
 * from 128), each chat's best, the best @limit chats and their best @passages messages, and the
 * totals: one walk of the doclist, one merge for a prefix term. A query with fewer than @ranked
 * matches reads no message (bm25 ranks those: rankChats).
 */
const COMMON_CHATS = `
    WITH hits AS MATERIALIZED (
      SELECT rowid AS rid FROM messages_fts WHERE messages_fts MATCH @match ORDER BY rowid DESC LIMIT @counted
    ), totals AS MATERIALIZED (
      SELECT (SELECT count(*) FROM (SELECT rid FROM hits LIMIT @ranked)) AS window, (SELECT count(*) FROM hits) AS counted
    ), newest AS MATERIALIZED (
      SELECT n.rid, m.session_id AS sessionId,
             CASE WHEN ${docsizeByte(1)} < 128 THEN ${docsizeByte(1)}
                  ELSE (${docsizeByte(1)} - 128) * 128 + ${docsizeByte(2)} % 128 END AS length
        FROM (SELECT rid FROM hits ORDER BY rid DESC LIMIT @ranked) n
        CROSS JOIN chat_messages m ON m.rid = n.rid -- else SQLite scans every message
        JOIN messages_fts_docsize d ON d.id = n.rid
       WHERE m.hidden_in IS NULL AND (SELECT window FROM totals) >= @ranked
    ), ranked AS MATERIALIZED (
      SELECT *, row_number() OVER (PARTITION BY sessionId ORDER BY length, rid DESC) AS n,
             count(*) OVER (PARTITION BY sessionId) AS matches
        FROM newest
    ), chats AS MATERIALIZED (
      SELECT r.sessionId, r.length AS best, r.rid AS bestRid, r.matches, s.updated_at AS updatedAt,
             r.sessionId IN (SELECT value FROM json_each(@titled)) AS titled
        FROM ranked r JOIN sessions s ON s.id = r.sessionId
       WHERE r.n = 1 AND s.archived = 0
    ), top AS (
      SELECT * FROM chats ORDER BY titled DESC, best, bestRid DESC, updatedAt DESC LIMIT @limit
    ), picked AS (
      SELECT r.rid, r.sessionId, m.id AS messageId, m.seq, m.role, m.created_at AS createdAt, r.length, t.matches,
             t.titled, t.best, t.bestRid, t.updatedAt, r.n
        FROM top t JOIN ranked r ON r.sessionId = t.sessionId AND r.n <= @passages
        CROSS JOIN chat_messages m ON m.rid = r.rid
    )
    SELECT totals.window, totals.counted,
           (SELECT count(*) FROM (SELECT sessionId FROM chats UNION SELECT value FROM json_each(@titled))) AS chatTotal,
           (SELECT coalesce(sum(matches), 0) FROM chats) AS matchTotal, p.*
      FROM totals LEFT JOIN picked p ON 1
     ORDER BY p.titled DESC, p.best, p.bestRid DESC, p.updatedAt DESC, p.n`

/**
 * The chats of a common query's newest `ranked` matches, best first, each with its best `passages`
 * messages; undefined when the query has fewer matches (it is ranked by bm25 then: rankChats).
 * bm25 is not read: its idf alone walks every match of each word. With each word said once, as in
 * most of a common word's messages, bm25 ranks the shorter message first, so the messages are
 * ranked by their length in the index (FTS5's docsize record), the newest first among equals. The
 * counts are lower bounds: each chat's matches among the ranked ones; in all, those or the matches
 * of the whole index counted up to COUNTED_MATCHES less every message a search never lists,
 * whichever is more.
 */
function commonChats(
  db: Db,
  match: string,
  { limit = 50, passages = 1, ranked = RANKED_MATCHES, titled = [] }: ChatSearchOptions,
  prefixes?: PrefixMarks
): ChatSearch | undefined {
  const best = prepared(db, COMMON_CHATS).all({
    match,
    ranked,
    counted: Math.max(ranked, COUNTED_MATCHES),
    limit,
    passages,
    titled: JSON.stringify(titled)
  }) as Array<{
    window: number
    counted: number
    chatTotal: number
    matchTotal: number
    rid: number | null
    sessionId: string
    messageId: string
    seq: number
    role: string
    createdAt: number
    length: number
    matches: number
  }>
  const first = best[0]!
  // Fewer matches than are ranked: bm25 ranks every one of them.
  if (first.window < ranked) return undefined
  // Every ranked match set aside or in an archived chat.
  if (first.rid === null) return { rows: [], chats: first.chatTotal, matches: 0, countIsLowerBound: true }
  const snippets = snippetsOf(
    db,
    prefixes?.match ?? match,
    best.map((r) => r.rid!)
  )
  const rows = new Map<string, ChatMatchRow>()
  for (const { rid, sessionId, length, matches, messageId, seq, role, createdAt } of best) {
    const row = rows.get(sessionId) ?? { sessionId, passages: [], matches, countIsLowerBound: true, rank: length }
    const snippet = snippets.get(rid!) ?? ''
    row.passages.push({ messageId, seq, role, createdAt, snippet: prefixes ? prefixes.keep(snippet) : snippet })
    rows.set(sessionId, row)
  }
  return {
    rows: [...rows.values()],
    chats: first.chatTotal,
    matches: Math.max(first.matchTotal, first.counted - unlistedAtMost(db)),
    countIsLowerBound: true
  }
}

/**
 * Messages among a query's matches that a search never lists, at most: every version set aside
 * (hidden_in) and every message of an archived chat (its last seq bounds how many it holds). The
 * index's count less these is never more than the listed messages that match.
 */
function unlistedAtMost(db: Db): number {
  return (prepared(db, UNLISTED).get() as { n: number }).n
}

const UNLISTED = `
    SELECT (SELECT count(*) FROM chat_messages WHERE hidden_in IS NOT NULL)
         + coalesce((SELECT sum((SELECT coalesce(max(seq), 0) FROM chat_messages WHERE session_id = s.id))
                       FROM sessions s WHERE s.archived = 1), 0) AS n`

/** How the passages of a common prefix search are marked without merging its doclists again. */
interface PrefixMarks {
  /** The same words, cut to the three characters FTS5 keeps a prefix index for. */
  match: string
  /** Drops the marks of words the cut finds but the typed prefixes do not begin. */
  keep(snippet: string): string
}

/** Letters as the index compares them: lower case, without accents. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

/**
 * PrefixMarks for a typed query, or undefined when every word is short enough for the prefix
 * indexes (its snippets then merge nothing). A prefix of four or more characters merges the
 * doclists of every word it begins in each MATCH (5–10 ms for "alph" at 1,000,000 messages):
 * the snippets of the few passages shown mark the words of the three-character prefix, which has
 * an index, and keep only the marks on words the typed prefixes begin.
 */
function markedPrefixes(query: string): PrefixMarks | undefined {
  const terms = query
    .split(/\s+/)
    .map((t) => t.replace(/"/g, '').trim())
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
  if (!terms.some((t) => [...t].length > 3)) return undefined
  const cut = terms.map((t) => `"${[...t].slice(0, 3).join('')}"*`).join(' ')
  // The index reads "e-mail" as two words: each typed word's letters, as the marks hold them.
  const typed = terms.flatMap((t) => folded(t).split(/[^\p{L}\p{N}]+/u)).filter(Boolean)
  return {
    match: inText(cut),
    keep: (snippet) =>
      // The marks FTS5's snippet() puts around a matched word (snippetsOf).
      // eslint-disable-next-line no-control-regex
      snippet.replace(/\u0002([^\u0003]*)\u0003/g, (marked: string, word: string) =>
        typed.some((t) => folded(word).startsWith(t)) ? marked : word
      )
  }
}

/**
 * The chats of the matches of an FTS5 MATCH expression, ranked by bm25 (the newest `ranked` of them:
 * searchChats gives this only a query with fewer), best first, each with its best `passages`
 * messages. `countIsLowerBound` when the ranked matches are full.
 */
function rankChats(
  db: Db,
  match: string,
  { limit = 50, passages = 1, ranked = RANKED_MATCHES, titled = [] }: ChatSearchOptions
): ChatSearch {
  const titledJson = JSON.stringify(titled)
  // One statement: the newest matches, their chats ranked by their best message, the totals over
  // every chat found, and the best few messages of the chats returned. Every CTE read twice is
  // materialized so the MATCH (and bm25) runs once.
  const best = db.all<{
    rid: number
    sessionId: string
    messageId: string
    seq: number
    role: string
    createdAt: number
    rank: number
    matches: number
    window: number
    chatTotal: number
    matchTotal: number
  }>(sql`
    WITH newest AS MATERIALIZED (
      SELECT rowid AS rid, bm25(messages_fts, 1, 0, 0) AS rank
        FROM messages_fts
       WHERE messages_fts MATCH ${match}
       ORDER BY rowid DESC
       LIMIT ${ranked}
    ), hits AS (
      SELECT n.rid, n.rank, m.session_id AS sessionId, m.id AS messageId, m.seq, m.role, m.created_at AS createdAt
        FROM newest n CROSS JOIN chat_messages m ON m.rid = n.rid -- else SQLite scans every message
       WHERE m.hidden_in IS NULL
    ), ranked AS MATERIALIZED (
      SELECT *, row_number() OVER (PARTITION BY sessionId ORDER BY rank, rid DESC) AS n,
             count(*) OVER (PARTITION BY sessionId) AS matches
        FROM hits
    ), chats AS MATERIALIZED (
      SELECT r.sessionId, r.rank AS best, r.matches, s.updated_at AS updatedAt,
             r.sessionId IN (SELECT value FROM json_each(${titledJson})) AS titled
        FROM ranked r JOIN sessions s ON s.id = r.sessionId
       WHERE r.n = 1 AND s.archived = 0
    ), top AS (
      SELECT * FROM chats ORDER BY titled DESC, best, updatedAt DESC LIMIT ${limit}
    )
    SELECT r.rid, r.sessionId, r.messageId, r.seq, r.role, r.createdAt, r.rank, t.matches,
           (SELECT count(*) FROM newest) AS window,
           (SELECT count(*) FROM (SELECT sessionId FROM chats UNION SELECT value FROM json_each(${titledJson}))) AS chatTotal,
           (SELECT coalesce(sum(matches), 0) FROM chats) AS matchTotal
      FROM top t JOIN ranked r ON r.sessionId = t.sessionId AND r.n <= ${passages}
     ORDER BY t.titled DESC, t.best, t.updatedAt DESC, r.n`)
  if (best.length === 0) return { rows: [], chats: titled.length, matches: 0, countIsLowerBound: false }
  const full = best[0]!.window >= ranked
  const snippets = snippetsOf(
    db,
    match,
    best.map((r) => r.rid)
  )
  const rows = new Map<string, ChatMatchRow>()
  for (const { rid, sessionId, rank, matches, messageId, seq, role, createdAt } of best) {
    const row = rows.get(sessionId) ?? { sessionId, passages: [], matches, countIsLowerBound: full, rank }
    row.passages.push({ messageId, seq, role, createdAt, snippet: snippets.get(rid) ?? '' })
    rows.set(sessionId, row)
  }
  return { rows: [...rows.values()], chats: best[0]!.chatTotal, matches: best[0]!.matchTotal, countIsLowerBound: full }
}

/**
 * The snippets of these messages from one more MATCH, not one per message: FTS5 reads only the
 * rowid range, and `+rowid` keeps the IN list from it (given to FTS5, each value would be a MATCH
 * of its own) while still limiting snippet() to the winners.
 */
function snippetsOf(db: Db, match: string, rids: readonly number[]): Map<number, string> {
  // The bounds as integers: bound as numbers (REAL), FTS5 read the whole doclist (33 ms, not
  // 0.2 ms, for a word in every message of 1,000,000).
  const rows = prepared(db, SNIPPETS).all({
    match,
    low: BigInt(Math.trunc(Math.min(...rids))),
    high: BigInt(Math.trunc(Math.max(...rids))),
    rids: JSON.stringify(rids)
  }) as Array<{ rid: number; snippet: string }>
  return new Map(rows.map((r) => [r.rid, r.snippet]))
}

const SNIPPETS = `
    SELECT rowid AS rid, snippet(messages_fts, 0, char(2), char(3), '…', 12) AS snippet
      FROM messages_fts
     WHERE messages_fts MATCH @match AND rowid BETWEEN @low AND @high
       AND +rowid IN (SELECT value FROM json_each(@rids))`
