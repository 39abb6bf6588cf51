import type { Snapshot } from '../../../shared/domain/snapshot'
import type { SummarySources } from '../../../shared/contract/compression'
import { notFound } from '../../../shared/app-error'
import type { Db } from '../../db/client'
import { cascadeBase, findSnapshot } from '../../db/repositories/snapshots-repo'
import { matchInSpan, type SpanMatch } from '../../db/repositories/summary-sources-repo'
import { contentWords, recallTerms } from '../../engine/recall/recall-query'
import { terms } from '../../engine/extractive/terms'
import { USER_NOTES_HEADING } from '../../../shared/domain/user-notes'

/**
 * Where each line of a summary came from (issue 37): found after the fact, by lexical match
 * against the messages the summary covers, so neither the summary the model receives nor the
 * summarization prompt changes. An offline (extractive) line is copied from one message and
 * finds it exactly; a model's line gets its best one to three matches from the full-text index.
 */

/** A line of a summary worth attributing: its place, and its words without the list marker and speaker. */
export interface SummaryLine {
  /** 0-based line number in the summary's text. */
  line: number
  /** Character offset of the line in the text. */
  offset: number
  /** The line's words: bullet, quote marker, emphasis and a leading speaker label removed. */
  content: string
  /** The speaker label a line starts with ("user", "assistant", a name), lower-cased. */
  speaker?: string
}

const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+/
const HEADING = /^\s*(?:#{1,6}\s|(?:[-*_]\s*){3,}$|\|?\s*:?-{3,})/
/** "Summary of 12 earlier messages (extractive…):", the offline summarizer's first line. */
const EXTRACTIVE_HEADER = /^Summary of .*\(extractive.*\):\s*$/
/** A short line ending in a colon is a section title ("Key Points:", "8 May 2023:"). */
const TITLE = /^[^.!?]{0,60}:\s*$/
/** "Caroline: …", "user: …", "**Decision**: …" at the start of a bullet. */
const SPEAKER = /^([\p{L}\p{N}][\p{L}\p{N} .'’-]{0,38}):\s+/u
/** Words about the chat's roles: every line of a summary says them, so they tell nothing apart. */
const ROLE_WORDS = ['user', 'users', 'assistant', 'assistants']

const stripMarkdown = (text: string) => text.replace(/\*\*|__|`+|~~|\[([^\]]*)\]\([^)]*\)/g, (m, label) => label ?? '')

/** The lines of a summary that say something, with what a match compares. */
export function summaryLines(text: string): SummaryLine[] {
  const out: SummaryLine[] = []
  let offset = 0
  let fenced = false
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!
    const at = offset
    offset += raw.length + 1
    const trimmed = raw.trim()
    if (/^(```|~~~)/.test(trimmed)) {
      fenced = !fenced
      continue
    }
    // The user's own notes come from no message: they are theirs.
    if (trimmed === USER_NOTES_HEADING) break
    if (fenced || trimmed === '' || HEADING.test(trimmed) || EXTRACTIVE_HEADER.test(trimmed)) continue
    const bulleted = BULLET.test(trimmed)
    let content = stripMarkdown(trimmed.replace(/^>\s*/, '').replace(BULLET, ''))
    if (!bulleted && TITLE.test(content)) continue
    let speaker: string | undefined
    const label = SPEAKER.exec(content)
    if (label && label[1]!.split(/\s+/).length <= 4) {
      speaker = label[1]!.toLowerCase()
      content = content.slice(label[0].length)
    }
    content = content.trim()
    if (contentWords(content).filter((w) => !ROLE_WORDS.includes(w)).length < 2) continue
    out.push({ line: i, offset: at, content, ...(speaker ? { speaker } : {}) })
  }
  return out
}

/** A part of a summary's text and the messages it covers: seq in (afterSeq, uptoSeq]. */
export interface SummarySpan {
  from: number
  afterSeq: number
  uptoSeq: number
}

/**
 * The spans of a summary's text: written whole, it covers every message up to its cutoff; grown by
 * appending (`appendedAt`), each appended part covers only the messages after the summary it was
 * appended to, and the text before it is that summary word for word (followed down its bases).
 */
export function summarySpans(snapshot: Snapshot, base: (s: Snapshot) => Snapshot | undefined): SummarySpan[] {
  const at = (snapshot.content.appendedAt ?? []).filter((n) => n > 0 && n < snapshot.content.summaryText.length)
  const spans: SummarySpan[] = []
  let upper = snapshot
  for (let k = at.length; k >= 1; k--) {
    const below = base(upper)
    if (!below) break
    spans.unshift({ from: at[k - 1]!, afterSeq: below.cutoffSeq, uptoSeq: upper.cutoffSeq })
    upper = below
  }
  spans.unshift({ from: 0, afterSeq: 0, uptoSeq: upper.cutoffSeq })
  return spans
}

/** Words of a line looked up (its longer ones first): more only slow the lookup of a long chat. */
const QUERY_TERMS = 10
/** Candidates compared per line: the best bm25 matches of its words. */
const CANDIDATES = 12
/** A model's line names at most this many messages. */
const MAX_SOURCES = 3
/** Share of a line's words a message must hold to be named as a source of it. */
const MIN_COVERAGE = 0.34
/** Of the best match's share, what another match needs to be named beside it. */
const RUNNER_UP = 0.6
/** From this share, a line holds the message's words as good as verbatim. */
const QUOTED = 0.9

const normalize = (text: string) =>
  stripMarkdown(text)
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()

/** The pieces of a line quoted as they were said: the offline summarizer joins sentences with " … " and clips with "…". */
function fragments(content: string): string[] {
  return content
    .split(/\s+…\s+/)
    .map((f) => normalize(f.replace(/…$/, '')))
    .filter((f) => f.length >= 12)
}

interface Scored {
  match: SpanMatch
  coverage: number
  quoted: boolean
}

/** What a candidate message holds, computed once per message per summary. */
interface Known {
  norm: string
  terms: Set<string>
}

function scoreLine(
  line: SummaryLine,
  candidates: readonly SpanMatch[],
  known: Map<string, Known>,
  extractive: boolean
): Scored[] {
  const wanted = terms(line.content).filter((t) => !ROLE_WORDS.includes(t))
  if (wanted.length === 0) return []
  const pieces = fragments(line.content)
  const role =
    line.speaker === 'user' || line.speaker === 'you' ? 'user' : line.speaker === 'assistant' ? 'assistant' : undefined
  const scored = candidates.map((match): Scored => {
    let k = known.get(match.messageId)
    if (!k) {
      k = { norm: normalize(match.text), terms: new Set(terms(match.text)) }
      known.set(match.messageId, k)
    }
    const held = wanted.filter((t) => k.terms.has(t)).length
    const quoted = pieces.length > 0 && pieces.every((p) => k.norm.includes(p))
    // The speaker a line names breaks a tie between two messages saying the same.
    const coverage = held / wanted.length + (role && match.role === role ? 0.02 : 0)
    return { match, coverage, quoted }
  })
  // Better first: quoted, then the larger share of the line's words, then bm25 (lower is better), then the earlier.
  scored.sort(
    (a, b) =>
      Number(b.quoted) - Number(a.quoted) ||
      b.coverage - a.coverage ||
      a.match.score - b.match.score ||
      a.match.seq - b.match.seq
  )
  const best = scored[0]
  if (!best) return []
  if (best.quoted) return [best]
  const enough = wanted.length >= 3 ? MIN_COVERAGE : 1
  if (best.coverage < enough) return []
  // An offline line is copied from one message: the best match is it.
  if (extractive) return [best]
  return scored
    .filter((s, i) => i === 0 || (s.coverage >= enough && s.coverage >= best.coverage * RUNNER_UP))
    .slice(0, MAX_SOURCES)
}

const PREVIEW_CHARS = 140
/** The start of a message as one line of plain words (Markdown marks, fences and list markers left out). */
const preview = (text: string) => {
  const plain = text
    .slice(0, PREVIEW_CHARS * 4)
    .replace(/^\s*(?:```|~~~).*$/gm, '')
    .replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)/gm, '')
  const flat = stripMarkdown(plain).replace(/\s+/g, ' ').trim()
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1).trimEnd()}…` : flat
}

/** Lines attributed between two looks at the clock: the work yields to other requests in between. */
const SLICE_MS = 12

/**
 * The sources of each line of a summary, as a generator that yields between slices of work
 * (`summarySourcesNow` runs it through, `summarySourcesAsync` lets the event loop in between).
 */
function* attribute(db: Db, snapshot: Snapshot, now: () => number): Generator<void, SummarySources> {
  const extractive = snapshot.content.summarizer === 'extractive' || snapshot.content.summarizer === 'truncate'
  const spans = summarySpans(snapshot, (s) => cascadeBase(db, s))
  const known = new Map<string, Known>()
  const messages = new Map<string, SummarySources['messages'][number]>()
  const lines: SummarySources['lines'] = []
  let sliceStart = now()
  for (const line of summaryLines(snapshot.content.summaryText)) {
    if (now() - sliceStart > SLICE_MS) {
      yield
      sliceStart = now()
    }
    const span = spans.findLast((s) => s.from <= line.offset) ?? spans[0]!
    const query = recallTerms(line.content, ROLE_WORDS).slice(0, QUERY_TERMS)
    if (query.length === 0) continue
    const candidates = matchInSpan(db, snapshot.sessionId, query.join(' OR '), span, CANDIDATES)
    const chosen = scoreLine(line, candidates, known, extractive)
    if (chosen.length === 0) continue
    lines.push({
      line: line.line,
      sources: chosen.map((c) => ({
        messageId: c.match.messageId,
        seq: c.match.seq,
        quoted: c.quoted || c.coverage >= QUOTED
      }))
    })
    for (const { match } of chosen)
      if (!messages.has(match.messageId))
        messages.set(match.messageId, {
          messageId: match.messageId,
          seq: match.seq,
          role: match.role,
          createdAt: match.createdAt,
          preview: preview(match.text)
        })
  }
  return {
    snapshotId: snapshot.id,
    messagesIncluded: snapshot.content.messagesIncluded,
    lines,
    messages: [...messages.values()].sort((a, b) => a.seq - b.seq)
  }
}

/** The sources of a summary's lines, in one go (an export, which reads the whole chat anyway). */
export function summarySourcesNow(db: Db, snapshot: Snapshot): SummarySources {
  const run = attribute(db, snapshot, () => 0)
  for (let step = run.next(); ; step = run.next()) if (step.done) return step.value
}

/** The same, giving way to other requests every few milliseconds. */
export async function summarySourcesAsync(db: Db, snapshot: Snapshot, now = () => performance.now()) {
  const run = attribute(db, snapshot, now)
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) return step.value
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
}

/** Summaries whose sources are kept: the one open in the panel and a few before it. */
const KEPT = 16

export type SummarySourcesService = ReturnType<typeof createSummarySources>

/**
 * Sources computed when someone looks (the Summary panel, the inspector), kept per summary: a
 * summary's text and span never change once written (an edit is a new summary).
 */
export function createSummarySources({ db }: { db: Db }) {
  const kept = new Map<string, { text: string; sources: Promise<SummarySources> }>()
  return {
    forSnapshot(sessionId: string, snapshotId: string): Promise<SummarySources> {
      const snapshot = findSnapshot(db, snapshotId)
      if (!snapshot || snapshot.sessionId !== sessionId || snapshot.kind !== 'summary') throw notFound('The summary')
      const hit = kept.get(snapshotId)
      if (hit && hit.text === snapshot.content.summaryText) {
        kept.delete(snapshotId)
        kept.set(snapshotId, hit)
        return hit.sources
      }
      const sources = summarySourcesAsync(db, snapshot)
      kept.set(snapshotId, { text: snapshot.content.summaryText, sources })
      // A failure is not kept: the next look tries again.
      sources.catch(() => kept.delete(snapshotId))
      while (kept.size > KEPT) kept.delete(kept.keys().next().value!)
      return sources
    }
  }
}
