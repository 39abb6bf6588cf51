/**
 * The token budget of one request (DESIGN §5): window W, reserved output O, safety margin S and
 * the usable budget U = W − O − S that history, summary and input must fit in.
 */
export interface Budget {
  window: number
  reservedOutput: number
  safetyMargin: number
  usable: number
  /** Auto-compression fires when the next request would exceed this many tokens (T × U). */
  threshold: number
  thresholdPercent: number
}

export interface BudgetInput {
  contextWindow: number
  maxOutput: number
  /** The user's cap on the reply; the model's max output when absent. */
  outputCap?: number
  safetyMarginPercent: number
  thresholdPercent: number
}

export function computeBudget(input: BudgetInput): Budget {
  const window = Math.max(0, Math.floor(input.contextWindow))
  // A reply can never be promised more than half the window, or nothing would be left for history.
  const reservedOutput = Math.min(
    Math.floor(window / 2),
    Math.max(0, Math.floor(input.outputCap ?? input.maxOutput))
  )
  const safetyMargin = Math.ceil((window * input.safetyMarginPercent) / 100)
  const usable = Math.max(0, window - reservedOutput - safetyMargin)
  return {
    window,
    reservedOutput,
    safetyMargin,
    usable,
    threshold: Math.floor((usable * input.thresholdPercent) / 100),
    thresholdPercent: input.thresholdPercent
  }
}
