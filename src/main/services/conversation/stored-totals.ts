import type { Session } from '../../../shared/domain/session'
import type { Db } from '../../db/client'
import { blockTotals, mergeTotals } from '../../db/repositories/messages/count-blocks-repo'
import { historyTotals, newestSeq, type HistoryTotal } from '../../db/repositories/messages/messages-repo'
import { lowestTouchedSince, writeMark, type CountChange, type WriteMark } from '../../db/repositories/write-generation'
import type { ModelSpec } from '../../models/catalog'
import { isExactCounter } from '../../tokens/message-tokens'
import { fitsCounter, SCALED, type HeadCounter } from './head-counter'

export interface Totals {
  messages: number
  tokens: number
  counters: Set<string>
  exact: boolean
}

const TOTALS_CACHE_LIMIT = 512
/** Messages at the end of a chat whose counts are summed on every request (replies and counts land there). */
const RECENT_MESSAGES = 256

/** Moves one message's count from the sum of its old counter to its new one's; false when the sums do not hold it. */
function moveCount(groups: HistoryTotal[], change: CountChange): boolean {
  const from = groups.find((g) => g.counter === change.from.counter)
  if (!from) return false
  from.messages--
  from.tokens -= change.from.tokens ?? 0
  if (change.from.tokens !== null) from.counted--
  if (from.messages <= 0) groups.splice(groups.indexOf(from), 1)
  const to = groups.find((g) => g.counter === change.to.counter)
  if (to) {
    to.messages++
    to.tokens += change.to.tokens
    to.counted++
  } else groups.push({ counter: change.to.counter, messages: 1, tokens: change.to.tokens, counted: 1 })
  return true
}

/** A chat's history totals from the counts stored with its messages, without reading the messages. */
export function createStoredTotals(
  db: Db,
  counter: Pick<HeadCounter, 'staleRatio'>,
  onStale: (session: Session, spec: ModelSpec) => void
) {
  // Totals of each chat's older messages, valid until a write (here or by another process) touches them.
  const olderTotals = new Map<string, { mark: WriteMark; upto: number; groups: HistoryTotal[] }>()

  /**
   * Stored counts of the history per counter. The older part (all but the newest messages) is kept
   * per chat until a write touches it; only the newest part is summed again, so a request after a
   * new message does not re-read the chat.
   */
  function countsByCounter(sessionId: string, afterSeq: number, beforeSeq: number): HistoryTotal[] {
    const key = `${sessionId}|${afterSeq}`
    let older = olderTotals.get(key)
    if (older) {
      const { now, lowest, counts } = lowestTouchedSince(db, sessionId, older.mark)
      if (lowest <= older.upto) older = undefined
      else {
        // New counts of some messages (a recount): moved between the counters' sums, nothing re-read.
        const moved = counts.every(
          (c) => !c.inHistory || c.seq <= afterSeq || c.seq > older!.upto || moveCount(older!.groups, c)
        )
        if (moved) older.mark = now
        else older = undefined
      }
    }
    if (!older) {
      const mark = writeMark(db, sessionId)
      const upto = Math.max(afterSeq, newestSeq(db, sessionId) - RECENT_MESSAGES)
      older = { mark, upto, groups: blockTotals(db, sessionId, afterSeq, upto + 1) }
      if (olderTotals.size >= TOTALS_CACHE_LIMIT) olderTotals.clear()
      olderTotals.set(key, older)
    }
    if (beforeSeq <= older.upto + 1) return blockTotals(db, sessionId, afterSeq, beforeSeq)
    return mergeTotals([...older.groups, ...historyTotals(db, sessionId, older.upto, beforeSeq)])
  }

  /**
   * Tokens of the history from stored counts, those stored for another tokenizer scaled to this
   * model's (and recounted in the background); undefined when some were never counted.
   */
  function storedTotals(session: Session, spec: ModelSpec, afterSeq: number, beforeSeq: number): Totals | undefined {
    // A counter's group can be left with no messages (a count moved from it to another): it is no
    // stale count, and taking it for one started a recount after every reply.
    const groups = countsByCounter(session.id, afterSeq, beforeSeq).filter((g) => g.messages > 0)
    if (groups.some((g) => g.counted < g.messages)) return undefined
    const fits = (g: HistoryTotal) => fitsCounter(g.counter, spec)
    const ratio = groups.every(fits) ? 1 : counter.staleRatio(session, spec)
    if (!groups.every(fits)) onStale(session, spec)
    return {
      messages: groups.reduce((s, g) => s + g.messages, 0),
      tokens: groups.reduce((s, g) => s + (fits(g) ? g.tokens : Math.round(g.tokens * ratio)), 0),
      counters: new Set(groups.map((g) => (fits(g) ? g.counter! : SCALED))),
      exact: groups.every((g) => fits(g) && isExactCounter(g.counter!))
    }
  }

  return storedTotals
}
