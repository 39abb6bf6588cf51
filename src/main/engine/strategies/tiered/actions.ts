/**
 * The five escalation steps of ADR 033 / Agent Zero, one action at a time. Actions that need a summary
 * are generators: they yield a SummarizeInput and receive the text, so the same code runs with a
 * synchronous (extractive) or an asynchronous (LLM) summarizer. Each returns the new state and an
 * event, or undefined when it does not apply; inputs are never modified.
 */
import { allowedBoundaries } from '../../retention'
import { truncateMiddle } from '../../truncate'
import type { CountTokens, EngineMessage } from '../../types'
import { fitText, type SummarizeInput } from '../summarize'
import type { TieredConfig } from './config'
import type { TieredEvent, TieredState, Tier, Topic } from './types'
import { shown, tierUsage, topicText, topicTokens, uncoveredMiddle } from './view'

export interface ActionEnv {
  countTokens: CountTokens
  config: TieredConfig
  /** The tiers' current effective allocations (see effectiveAllocations), for the large-message cap. */
  allocations: Record<Tier, number>
  /** The tiers' own shares of the history budget (allocations), which size the summaries in a wide window. */
  shares: Record<Tier, number>
  /** Keys of actions that made no progress during this run: never retried. */
  exhausted: Set<string>
}

export interface ActionResult {
  state: TieredState
  event: TieredEvent
}

export type Step = Generator<SummarizeInput, ActionResult | undefined, string>

const withTruncated = (topic: Topic, m: EngineMessage, text: string, tokens: number): Topic => ({
  ...topic,
  truncated: { ...topic.truncated, [m.id]: { text, tokens, removedChars: m.text.length - text.length } }
})

/** Indexes of a topic's messages the context shows verbatim; the current topic's last one is protected. */
function visibleIndexes(topic: Topic, protectLast: boolean): number[] {
  const n = topic.messages.length
  if (n === 0 || topic.summary !== undefined) return []
  const { from, to } = uncoveredMiddle(topic)
  const out = [0]
  for (let i = from; i < to; i++) out.push(i)
  if (n > 1) out.push(n - 1)
  return protectLast ? out.filter((i) => i !== n - 1) : out
}

/**
 * Step 1: the largest message over its cap is cut in the middle. The cap is the smaller of
 * largeMessageRatio × the tier's allocation (Agent Zero) and maxMessageChars (ADR 033), the latter
 * turned into tokens at the message's own token-to-character ratio; but never below
 * topicSummaryTokens: cutting a message smaller than a summary loses more than summarizing does.
 */
export function truncateLargest(
  state: TieredState,
  tier: 'current' | 'topics',
  env: ActionEnv
): ActionResult | undefined {
  const { config, countTokens } = env
  const share = Math.floor(config.largeMessageRatio * env.allocations[tier])
  const topics = tier === 'current' ? [state.current] : state.topics
  let best: { t: number; m: EngineMessage; cap: number; tokens: number } | undefined
  topics.forEach((topic, t) => {
    for (const i of visibleIndexes(topic, tier === 'current')) {
      const m = topic.messages[i]!
      if (topic.truncated?.[m.id] || env.exhausted.has(`t:${m.id}`)) continue
      const charCap =
        m.text.length > config.maxMessageChars
          ? Math.floor((m.tokens * config.maxMessageChars) / m.text.length)
          : Infinity
      const cap = Math.max(config.topicSummaryTokens, Math.min(share, charCap))
      if (m.tokens > cap && (!best || m.tokens > best.tokens)) best = { t, m, cap, tokens: m.tokens }
    }
  })
  if (!best) return undefined
  const { t, m, cap } = best
  const text = truncateMiddle(m.text, Math.max(0, cap), countTokens)
  const tokens = countTokens(text)
  if (tokens >= m.tokens) {
    env.exhausted.add(`t:${m.id}`)
    return truncateLargest(state, tier, env)
  }
  const topic = withTruncated(topics[t]!, m, text, tokens)
  const next =
    tier === 'current'
      ? { ...state, current: topic }
      : { ...state, topics: state.topics.map((x, i) => (i === t ? topic : x)) }
  return {
    state: next,
    event: {
      kind: 'truncate',
      tier,
      topicId: topic.id,
      messageId: m.id,
      tokensBefore: m.tokens,
      tokensAfter: tokens,
      removedChars: m.text.length - text.length
    }
  }
}

/**
 * What a summarizer reads of a message: the stored original, not the cut view (a summary should see
 * what the cut removed), but a huge one (a pasted log) only by its head and tail, so that a request
 * to an LLM summarizer stays bounded.
 */
export function summaryInput(msgs: readonly EngineMessage[], config: TieredConfig) {
  const max = 4 * config.maxMessageChars
  return msgs.map((m) => {
    const text =
      m.text.length <= max
        ? m.text
        : `${m.text.slice(0, Math.ceil(max * 0.6))}\n[...${m.text.length - max}...]\n${m.text.slice(m.text.length - Math.floor(max * 0.4))}`
    return {
      role: m.role,
      text,
      createdAt: m.createdAt,
      ...(m.statedDay !== undefined ? { statedDay: m.statedDay } : {})
    }
  })
}

/**
 * Step 2, Agent Zero's attention compression of the current topic: keep the first and the last
 * message, and fold the oldest ceil(attentionRatio × middle) items of the middle (the earlier attention
 * summary counts as one) into one summary. A tool call and its result stay on the same side.
 */
export function* attention(state: TieredState, env: ActionEnv): Step {
  const topic = state.current
  const msgs = topic.messages
  const n = msgs.length
  if (n < 3) return undefined
  const att = topic.attention?.text ? topic.attention : undefined
  const covered = topic.attention?.covered ?? 0
  const { from, to } = uncoveredMiddle(topic)
  const middle = (att ? 1 : 0) + (to - from)
  if (middle === 0) return undefined
  const k = Math.ceil(env.config.attentionRatio * middle)
  let newCovered = covered + k - (att ? 1 : 0)
  const allowed = allowedBoundaries(msgs)
  while (newCovered < n - 2 && !allowed[1 + newCovered]) newCovered++
  const folded = msgs.slice(from, 1 + newCovered)
  const before = (att?.tokens ?? 0) + folded.reduce((s, m) => s + shown(topic, m).tokens, 0)
  const key = `a:${topic.id}:${newCovered}:${before}`
  const target = Math.min(env.config.topicSummaryTokens, Math.floor(before / 2))
  if (env.exhausted.has(key) || folded.length + (att ? 1 : 0) === 0 || before === 0) return undefined
  const raw =
    target >= 1
      ? yield {
          purpose: 'attention',
          ...(att ? { previousSummary: att.text } : {}),
          messages: summaryInput(folded, env.config),
          targetTokens: target
        }
      : ''
  const fit = fitText(raw, target, env.countTokens)
  if (fit.tokens >= before) {
    env.exhausted.add(key)
    return undefined
  }
  return {
    state: { ...state, current: { ...topic, attention: { text: fit.text, tokens: fit.tokens, covered: newCovered } } },
    event: {
      kind: 'attention',
      topicId: topic.id,
      messageIds: folded.map((m) => m.id),
      tokensBefore: before,
      tokensAfter: fit.tokens
    }
  }
}

/**
 * How many topic summaries and bulks their tiers are sized for. ADR 033's ~200 / ~300 tokens suit a small
 * window; in a wide one (a tier's own share holds more than that many of them) they leave most of the tier
 * empty while the archives lose nearly everything, so a summary grows to its share of the tier's current
 * room. Small windows keep the ADR's sizes.
 */
export const TOPICS_PER_TIER = 8
export const BULKS_PER_TIER = 3
function grown(configured: number, share: number, room: number, per: number): number {
  return share / per > configured ? Math.max(configured, Math.floor(room / per)) : configured
}
const topicTarget = (env: ActionEnv) =>
  grown(env.config.topicSummaryTokens, env.shares.topics, env.allocations.topics, TOPICS_PER_TIER)
const bulkTarget = (env: ActionEnv) =>
  grown(env.config.bulkSummaryTokens, env.shares.bulks, env.allocations.bulks, BULKS_PER_TIER)

/** Step 3: the oldest unsummarized sealed topic becomes a summary of about topicSummaryTokens (or its share of a wide tier). */
export function* summarizeTopic(state: TieredState, env: ActionEnv): Step {
  for (let i = 0; i < state.topics.length; i++) {
    const topic = state.topics[i]!
    if (topic.summary !== undefined || env.exhausted.has(`s:${topic.id}`)) continue
    const before = topicTokens(topic)
    // Never "summarize" a small topic into something as large: at most half of what it takes now.
    const target = Math.min(topicTarget(env), Math.floor(before / 2))
    if (target < 1) {
      env.exhausted.add(`s:${topic.id}`)
      continue
    }
    const raw = yield { purpose: 'topic', messages: summaryInput(topic.messages, env.config), targetTokens: target }
    const fit = fitText(raw, target, env.countTokens)
    const summarized: Topic = { ...topic, summary: fit.text, summaryTokens: fit.tokens }
    return {
      state: { ...state, topics: state.topics.map((t, j) => (j === i ? summarized : t)) },
      event: { kind: 'topic-summary', topicId: topic.id, tokensBefore: before, tokensAfter: fit.tokens }
    }
  }
  return undefined
}

/** Step 4: the bulkMergeSize oldest topics become one bulk archive of about bulkSummaryTokens (or its share of a wide tier). */
export function* mergeTopics(state: TieredState, env: ActionEnv): Step {
  const group = state.topics.slice(0, Math.max(1, env.config.bulkMergeSize))
  if (group.length === 0) return undefined
  const before = group.reduce((s, t) => s + topicTokens(t), 0)
  // A bulk larger than the whole bulk tier would only be dropped again at once.
  const target = Math.min(bulkTarget(env), Math.floor(before / 2), Math.floor(env.allocations.bulks))
  const previousSummary = group
    .map(topicText)
    .filter((t) => t.trim() !== '')
    .join('\n')
  const raw =
    target >= 1 && previousSummary !== ''
      ? yield { purpose: 'bulk', previousSummary, messages: [], targetTokens: target }
      : ''
  const fit = fitText(raw, target, env.countTokens)
  const first = group[0]!
  const bulk = {
    id: `bulk-${first.id.replace(/^topic-/, '')}`,
    summary: fit.text,
    tokens: fit.tokens,
    topicIds: group.map((t) => t.id),
    firstSeq: first.firstSeq,
    lastSeq: group.at(-1)!.lastSeq,
    ...(group.at(-1)!.sealedBy === 'user' ? { endsAtUserBoundary: true } : {})
  }
  return {
    state: { ...state, topics: state.topics.slice(group.length), bulks: [...state.bulks, bulk] },
    event: {
      kind: 'bulk-merge',
      bulkId: bulk.id,
      topicIds: bulk.topicIds,
      tokensBefore: before,
      tokensAfter: fit.tokens
    }
  }
}

/**
 * Step 5a (Agent Zero's merge_bulks_by, tried before a bulk is removed): the two oldest bulks become
 * one, the older read as the earlier summary (a cascade), so the archive still covers the whole chat.
 * A boundary the user set by hand ("New topic") is never merged across.
 */
export function* cascadeBulks(state: TieredState, env: ActionEnv): Step {
  // The oldest two that no "New topic" of the user separates.
  const i = state.bulks.findIndex((x, k) => k + 1 < state.bulks.length && !x.endsAtUserBoundary)
  if (i < 0) return undefined
  const a = state.bulks[i]!
  const b = state.bulks[i + 1]!
  const key = `c:${a.id}:${b.id}:${a.tokens}:${b.tokens}`
  const before = a.tokens + b.tokens
  // The archive that stands for the older chat may fill the bulk tier (but must shrink the two).
  const target = Math.min(Math.floor(env.allocations.bulks), before - 1)
  if (env.exhausted.has(key) || target < 1) return undefined
  const raw = yield {
    purpose: 'bulk',
    previousSummary: `${a.summary}\n${b.summary}`,
    messages: [],
    targetTokens: target
  }
  const fit = fitText(raw, target, env.countTokens)
  if (fit.tokens === 0 || fit.tokens >= before) {
    env.exhausted.add(key)
    return undefined
  }
  const bulk = {
    id: a.id,
    summary: fit.text,
    tokens: fit.tokens,
    topicIds: [...a.topicIds, ...b.topicIds],
    firstSeq: a.firstSeq,
    lastSeq: b.lastSeq,
    ...(b.endsAtUserBoundary ? { endsAtUserBoundary: true } : {})
  }
  const bulks = [...state.bulks]
  bulks.splice(i, 2, bulk)
  return {
    state: { ...state, bulks },
    event: {
      kind: 'bulk-cascade',
      bulkId: bulk.id,
      topicIds: bulk.topicIds,
      tokensBefore: before,
      tokensAfter: fit.tokens
    }
  }
}

/** Step 5b, the last resort: the oldest bulk archive goes. */
export function dropOldestBulk(state: TieredState): ActionResult | undefined {
  const [oldest, ...rest] = state.bulks
  if (!oldest) return undefined
  return {
    state: { ...state, bulks: rest },
    event: {
      kind: 'bulk-drop',
      bulkId: oldest.id,
      topicIds: oldest.topicIds,
      tokensBefore: oldest.tokens,
      tokensAfter: 0
    }
  }
}

/**
 * Beyond the ADR, when nothing else is left and the history still does not fit (the current topic
 * alone is larger than the budget): drop the attention summary and the rest of the middle, then cut
 * the first message, and only then the last, to what is left. Never removes the last message.
 */
export function squeezeCurrent(state: TieredState, historyTokens: number, env: ActionEnv): ActionResult | undefined {
  const topic = state.current
  const n = topic.messages.length
  const over = tierUsage(state).total - historyTokens
  if (over <= 0 || n === 0) return undefined
  const { from, to } = uncoveredMiddle(topic)
  if (n >= 3 && (to > from || (topic.attention?.tokens ?? 0) > 0)) {
    const gone = topic.messages.slice(1, n - 1)
    const before =
      (topic.attention?.tokens ?? 0) + topic.messages.slice(from, to).reduce((s, m) => s + shown(topic, m).tokens, 0)
    return {
      state: { ...state, current: { ...topic, attention: { text: '', tokens: 0, covered: n - 2 } } },
      event: {
        kind: 'attention',
        topicId: topic.id,
        messageIds: gone.slice(from - 1).map((m) => m.id),
        tokensBefore: before,
        tokensAfter: 0
      }
    }
  }
  for (const i of n > 1 ? [0, n - 1] : [0]) {
    const m = topic.messages[i]!
    const s = shown(topic, m)
    if (s.tokens === 0) continue
    const fit = fitText(m.text, Math.min(s.tokens - 1, s.tokens - over), env.countTokens)
    return {
      state: { ...state, current: withTruncated(topic, m, fit.text, fit.tokens) },
      event: {
        kind: 'truncate',
        tier: 'current',
        topicId: topic.id,
        messageId: m.id,
        tokensBefore: s.tokens,
        tokensAfter: fit.tokens,
        removedChars: m.text.length - fit.text.length
      }
    }
  }
  return undefined
}
