/**
 * compressTiered (ADR 033 "Compression Escalation"): when the history is over its budget, apply the
 * escalation steps in order — (1) truncate large messages, (2) attention compression of the current
 * topic, (3) summarize sealed topics, (4) merge the oldest topics into a bulk, (5) drop the oldest
 * bulk — until every tier fits its allocation. Allocations are the tier shares of the budget, plus
 * whatever the tiers under their share leave unused, lent to the tiers over it (so one long topic may
 * use the whole budget while there is no history). When the tiers cannot fit (the current topic alone
 * is too large), the other tiers are compressed beyond their share, and finally the current topic's
 * middle and then its first message are given up. The last message is never dropped.
 */
import type { CountTokens } from '../../types'
import type { Summarize, SummarizeAsync, SummarizeInput } from '../summarize'
import {
  attention,
  cascadeBulks,
  dropOldestBulk,
  mergeTopics,
  squeezeCurrent,
  summarizeTopic,
  truncateLargest,
  type ActionEnv,
  type ActionResult,
  type Step
} from './actions'
import { DEFAULT_TIERED_CONFIG, type TieredConfig } from './config'
import type { TieredEvent, TieredState, Tier } from './types'
import { tierUsage } from './view'

export interface TieredBudget {
  /** What bulks, topics and the current topic may take together (U minus system prompt, input and overhead). */
  historyTokens: number
}

export interface TieredResult {
  state: TieredState
  events: TieredEvent[]
  tokensBefore: number
  tokensAfter: number
  fits: boolean
}

const TIERS: readonly Tier[] = ['current', 'topics', 'bulks']
const MAX_ACTIONS = 100_000

export function allocations(historyTokens: number, config: TieredConfig): Record<Tier, number> {
  const h = Math.max(0, historyTokens)
  return {
    current: h * config.tiers.currentTopic,
    topics: h * config.tiers.historicalTopics,
    bulks: h * config.tiers.bulkArchives
  }
}

/** Each tier's share, plus the room the tiers under their share leave, split among the tiers over it by share. */
export function effectiveAllocations(
  usage: Record<Tier, number>,
  historyTokens: number,
  config: TieredConfig
): Record<Tier, number> {
  const a = allocations(historyTokens, config)
  const ratio: Record<Tier, number> = {
    current: config.tiers.currentTopic,
    topics: config.tiers.historicalTopics,
    bulks: config.tiers.bulkArchives
  }
  let slack = 0
  let overRatio = 0
  for (const t of TIERS) {
    if (usage[t] <= a[t]) slack += a[t] - usage[t]
    else overRatio += ratio[t]
  }
  const e = { ...a }
  for (const t of TIERS) if (usage[t] > a[t] && overRatio > 0) e[t] = a[t] + (slack * ratio[t]) / overRatio
  return e
}

/** The escalation steps in ADR order; each applies to some tiers. */
function* firstApplicable(state: TieredState, tiers: readonly Tier[], env: ActionEnv): Step {
  const has = (t: Tier) => tiers.includes(t)
  // In order: the current topic before the historical ones for the shared step 1.
  for (const t of ['current', 'topics'] as const) {
    if (!has(t)) continue
    const r = truncateLargest(state, t, env)
    if (r) return r
  }
  if (has('current')) {
    const r = yield* attention(state, env)
    if (r) return r
  }
  if (has('topics')) {
    const r = (yield* summarizeTopic(state, env)) ?? (yield* mergeTopics(state, env))
    if (r) return r
  }
  if (has('bulks')) return (yield* cascadeBulks(state, env)) ?? dropOldestBulk(state)
  return undefined
}

/** The whole escalation as a generator of summarization requests (see compressTiered / compressTieredAsync). */
export function* compressTieredSteps(
  state: TieredState,
  budget: TieredBudget,
  options: { countTokens: CountTokens; config?: TieredConfig }
): Generator<SummarizeInput, TieredResult, string> {
  const config = options.config ?? DEFAULT_TIERED_CONFIG
  const h = Math.max(0, Math.floor(budget.historyTokens))
  const tokensBefore = tierUsage(state).total
  const events: TieredEvent[] = []
  if (tokensBefore <= h) return { state, events, tokensBefore, tokensAfter: tokensBefore, fits: true }
  const shares = allocations(h, config)
  const env: ActionEnv = { countTokens: options.countTokens, config, allocations: shares, shares, exhausted: new Set() }
  for (let i = 0; i < MAX_ACTIONS; i++) {
    const usage = tierUsage(state)
    const e = effectiveAllocations(usage, h, config)
    env.allocations = e
    const over = TIERS.filter((t) => usage[t] > e[t])
    let r: ActionResult | undefined
    // A: the tiers over their allocation, in escalation order.
    if (over.length > 0) r = yield* firstApplicable(state, over, env)
    // B: nothing left to do there but the total is still over: squeeze the other tiers too.
    if (!r && usage.total > h) r = yield* firstApplicable(state, TIERS, env)
    // C: the current topic alone is too large.
    if (!r && usage.total > h) r = squeezeCurrent(state, h, env)
    if (!r) break
    state = r.state
    events.push(r.event)
  }
  const tokensAfter = tierUsage(state).total
  return { state, events, tokensBefore, tokensAfter, fits: tokensAfter <= h }
}

/** Compresses with a synchronous summarizer (the extractive one: see extractiveSummarizer). */
export function compressTiered(
  state: TieredState,
  budget: TieredBudget,
  ctx: { countTokens: CountTokens; summarize: Summarize; config?: TieredConfig }
): TieredResult {
  const steps = compressTieredSteps(state, budget, ctx)
  let next = steps.next()
  while (!next.done) next = steps.next(ctx.summarize(next.value))
  return next.value
}

/** The same escalation with an asynchronous summarizer (an LLM): the calls are made one at a time, in order. */
export async function compressTieredAsync(
  state: TieredState,
  budget: TieredBudget,
  ctx: { countTokens: CountTokens; summarize: SummarizeAsync; config?: TieredConfig }
): Promise<TieredResult> {
  const steps = compressTieredSteps(state, budget, ctx)
  let next = steps.next()
  while (!next.done) next = steps.next(await ctx.summarize(next.value))
  return next.value
}
