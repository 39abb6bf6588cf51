/**
 * The one budget model of a request (DESIGN §5, §12). The window W, reserved output O, safety
 * margin S, usable budget U = W − O − S and threshold T × U are in the provider's tokens: what the
 * user sees and what the provider enforces. Messages are counted locally ("counted tokens"); when
 * those counts are estimates, a calibration learned from the provider's reported usage says how
 * many provider tokens one counted token costs. `scale` is that cost with the uncertainty made
 * safe, and `countedUsable` / `countedThreshold` restate U and T in counted tokens, so every
 * decision (the trigger, the plan, the context builder, Recall's room) and every number shown
 * (meter, inspector, `distill context`) comes from the same conversion:
 *
 *   providerTokens(b, c) ≤ b.usable  ⇔  c ≤ b.countedUsable
 *   providerTokens(b, c) > b.threshold  ⇔  c > b.countedThreshold
 */
export interface Budget {
  window: number
  reservedOutput: number
  safetyMargin: number
  usable: number
  /** Auto-compression fires when the next request would exceed this many tokens (T × U). */
  threshold: number
  thresholdPercent: number
  /** Provider tokens one counted token is taken to cost (1 when counts come from the model's own tokenizer). */
  scale: number
  /** U in counted tokens: what the context builder fits a request into. */
  countedUsable: number
  /** T × U in counted tokens: what the trigger and the compression plan compare counted totals with. */
  countedThreshold: number
  /** Every count came from the model's own tokenizer. */
  exact: boolean
  /** What the provider's reported usage taught about the estimate (provider / estimate), when anything. */
  calibration: Calibration | null
}

export interface Calibration {
  /** The provider's count over the local estimate of the same request, as a moving average. */
  factor: number
  /** Replies it was learned from. */
  samples: number
  /** How far single replies strayed from the factor (moving average of the absolute difference). */
  spread?: number
  /** Another model of the same provider it was learned from, before this model's first reply. */
  from?: string
}

export interface BudgetInput {
  contextWindow: number
  maxOutput: number
  /** The user's cap on the reply; the model's max output when absent. */
  outputCap?: number
  safetyMarginPercent: number
  thresholdPercent: number
  /** Counts are the model's own (default): no calibration applies. */
  exact?: boolean
  calibration?: Calibration | null
}

/** Deviations of single replies added on the safe side (about the 95th percentile of a normal spread). */
const SPREAD_DEVIATIONS = 2
/**
 * The least spread assumed, as a share of the factor, after one reply (it shrinks with √replies).
 * A few replies of one kind of text say little about another: a first short request learned a
 * provider's per-message overhead, not how it counts a long paste (measured: 11% apart).
 */
const PRIOR_SPREAD = 0.1

/**
 * Provider tokens per counted token, safe toward the provider's count. A provider that counts more
 * than the estimate is believed at once (a request must never pass its window); one that counts
 * fewer is believed a little more with each reply (1 reply: half way, 4: 80%), so one odd reply
 * cannot make Distill pack requests the provider then finds too big. How far single replies strayed
 * from the average (never assumed less than PRIOR_SPREAD) is added on top: a request made of other
 * text than the last ones counts otherwise.
 */
export function safeScale(exact: boolean, calibration: Calibration | null | undefined): number {
  if (exact || !calibration || !(calibration.factor > 0) || calibration.samples <= 0) return 1
  const prior = (PRIOR_SPREAD * calibration.factor) / Math.sqrt(calibration.samples)
  const spread = SPREAD_DEVIATIONS * Math.max(prior, calibration.spread ?? 0)
  if (calibration.factor >= 1) return calibration.factor + spread
  const trust = calibration.samples / (calibration.samples + 1)
  // Not capped at 1: a provider that counts fewer on average but strays widely may count more for this request.
  return 1 - (1 - calibration.factor) * trust + spread
}

/** What `counted` tokens cost in the provider's tokens (rounded up: never less than the provider may count). */
export function providerTokens(budget: Pick<Budget, 'scale'>, counted: number): number {
  if (counted <= 0) return 0
  if (budget.scale === 1) return Math.ceil(counted)
  return Math.ceil(counted * budget.scale - 1e-9)
}

/** The most counted tokens whose provider cost stays within `provider` tokens (the inverse of providerTokens). */
export function countedRoom(scale: number, provider: number): number {
  if (provider <= 0) return 0
  let room = Math.floor(provider / scale)
  while (room > 0 && providerTokens({ scale }, room) > provider) room--
  while (providerTokens({ scale }, room + 1) <= provider) room++
  return room
}

export function computeBudget(input: BudgetInput): Budget {
  const window = Math.max(0, Math.floor(input.contextWindow))
  // A reply can never be promised more than half the window, or nothing would be left for history.
  const reservedOutput = Math.min(Math.floor(window / 2), Math.max(0, Math.floor(input.outputCap ?? input.maxOutput)))
  const safetyMargin = Math.ceil((window * input.safetyMarginPercent) / 100)
  const usable = Math.max(0, window - reservedOutput - safetyMargin)
  const threshold = Math.floor((usable * input.thresholdPercent) / 100)
  const exact = input.exact ?? true
  const calibration = exact ? null : (input.calibration ?? null)
  const scale = safeScale(exact, calibration)
  return {
    window,
    reservedOutput,
    safetyMargin,
    usable,
    threshold,
    thresholdPercent: input.thresholdPercent,
    scale,
    countedUsable: countedRoom(scale, usable),
    countedThreshold: countedRoom(scale, threshold),
    exact,
    calibration
  }
}
