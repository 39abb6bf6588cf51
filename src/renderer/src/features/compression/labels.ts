import type { Strategy } from '../../../../shared/domain/session'

const STRATEGIES: Record<Strategy, string> = {
  rolling: 'Rolling',
  tiered: 'Tiered',
  importance: 'Importance'
}

export function strategyLabel(strategy: Strategy): string {
  return STRATEGIES[strategy] ?? strategy
}

/** A snapshot's summarizer: a model id, or 'extractive' / 'truncate'. */
export function summarizerLabel(summarizer: string): string {
  if (summarizer === 'extractive') return 'Extractive (offline, no model call)'
  if (summarizer === 'truncate') return 'Truncation marker'
  return summarizer
}
