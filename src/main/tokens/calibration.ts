import { z } from 'zod'
import type { ModelSpec } from '../models/catalog'

export const CALIBRATION_MIN = 0.5
export const CALIBRATION_MAX = 3
/** Weight of the newest observation: ~5 responses move the factor most of the way, one outlier can't. */
export const CALIBRATION_ALPHA = 0.3

/** Serializable so the lead can persist it in settings (keyed by `provider:modelId`). */
export const calibrationStateSchema = z.record(
  z.string(),
  z.object({
    factor: z.number().min(CALIBRATION_MIN).max(CALIBRATION_MAX),
    samples: z.number().int().nonnegative(),
    /** How far single replies strayed from the factor: the budget adds it on the safe side. */
    spread: z.number().min(0).max(CALIBRATION_MAX).optional()
  })
)
export type CalibrationState = z.infer<typeof calibrationStateSchema>

const clamp = (x: number) => Math.min(CALIBRATION_MAX, Math.max(CALIBRATION_MIN, x))

/**
 * Pure update: folds one response's reported input tokens against our local estimate of the same
 * request into an exponential moving average of reported/estimated. The first sample is taken as is.
 */
export function observeCalibration(
  state: CalibrationState,
  modelKey: string,
  estimatedInput: number,
  reportedInput: number
): CalibrationState {
  if (!(estimatedInput > 0) || !(reportedInput > 0)) return state // nothing to learn from
  const ratio = clamp(reportedInput / estimatedInput)
  const prev = state[modelKey]
  const factor = prev ? clamp(prev.factor + CALIBRATION_ALPHA * (ratio - prev.factor)) : ratio
  // A moving average of how far each reply strayed from what was expected of it.
  const spread = prev
    ? (1 - CALIBRATION_ALPHA) * (prev.spread ?? 0) + CALIBRATION_ALPHA * Math.abs(ratio - prev.factor)
    : 0
  return { ...state, [modelKey]: { factor, samples: (prev?.samples ?? 0) + 1, spread } }
}

/**
 * A provider refused a request as longer than its window: it counts at least `providerInput` where
 * the estimate said `estimatedInput`. Believed at once (the factor rises to that ratio, never falls),
 * and the jump is taken as spread, so the next request is built with room to spare until replies
 * show how the provider really counts.
 */
export function observeRefusal(
  state: CalibrationState,
  modelKey: string,
  estimatedInput: number,
  providerInput: number
): CalibrationState {
  if (!(estimatedInput > 0) || !(providerInput > 0)) return state
  const ratio = clamp(providerInput / estimatedInput)
  const prev = state[modelKey]
  const factor = Math.max(prev?.factor ?? 1, ratio)
  const spread = Math.min(CALIBRATION_MAX, Math.max(prev?.spread ?? 0, Math.abs(ratio - (prev?.factor ?? 1))))
  return { ...state, [modelKey]: { factor, samples: (prev?.samples ?? 0) + 1, spread } }
}

export function applyCalibration(state: CalibrationState, modelKey: string, estimate: number): number {
  const factor = state[modelKey]?.factor ?? 1
  return Math.ceil(estimate * factor)
}

/** A small holder around the pure functions; toJSON() is what to persist. */
export class Calibrator {
  private state: CalibrationState
  constructor(state: CalibrationState = {}) {
    this.state = calibrationStateSchema.catch({}).parse(state)
  }
  observe(modelKey: string, estimatedInput: number, reportedInput: number): void {
    this.state = observeCalibration(this.state, modelKey, estimatedInput, reportedInput)
  }
  refused(modelKey: string, estimatedInput: number, providerInput: number): void {
    this.state = observeRefusal(this.state, modelKey, estimatedInput, providerInput)
  }
  apply(modelKey: string, estimate: number): number {
    return applyCalibration(this.state, modelKey, estimate)
  }
  factor(modelKey: string): number {
    return this.state[modelKey]?.factor ?? 1
  }
  /**
   * What was learned for the model. Before its first reply with usage, another model of the same
   * provider that counted more than its estimate stands in (the most of them: the safe side), so
   * a switch to a smaller model of the same server does not start by passing its window.
   */
  calibration(modelKey: string): { factor: number; samples: number; spread: number; from?: string } | null {
    const entry = this.state[modelKey]
    if (entry) return { factor: entry.factor, samples: entry.samples, spread: entry.spread ?? 0 }
    const provider = modelKey.slice(0, modelKey.indexOf(':') + 1)
    let prior: { factor: number; samples: number; spread: number; from: string } | null = null
    for (const [key, e] of Object.entries(this.state)) {
      if (provider && key.startsWith(provider) && e.factor > 1 && (!prior || e.factor > prior.factor)) {
        prior = { factor: e.factor, samples: e.samples, spread: e.spread ?? 0, from: key.slice(provider.length) }
      }
    }
    return prior
  }
  toJSON(): CalibrationState {
    return this.state
  }
}

/** OpenAI models are counted exactly with tiktoken; everything else starts as an estimate. */
export function isExact(spec: ModelSpec): boolean {
  return spec.tokenizer === 'o200k_base' || spec.tokenizer === 'cl100k_base'
}

export const ESTIMATE_THRESHOLD_MARGIN = 5

/**
 * FR-5.2.1: when counts are estimates, compress earlier. 95% becomes 90%; never below 50%
 * (the settings minimum), and never above what the user chose.
 */
export function conservativeThreshold(thresholdPercent: number, exact: boolean): number {
  if (exact) return thresholdPercent
  return Math.max(Math.min(50, thresholdPercent), thresholdPercent - ESTIMATE_THRESHOLD_MARGIN)
}
