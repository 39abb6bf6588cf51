/** The importance strategy (Sigma ADR-006): see ../README.md. */
export {
  classify,
  PARADIGM_THRESHOLD,
  ROUTINE_THRESHOLD,
  scoreTurns,
  type ScoreOptions,
  type TurnClass,
  type TurnScore
} from './score-turns'
export { noveltyScores, NOVELTY_DEFAULTS, type NoveltyOptions } from './novelty'
export { turnSignals, type TurnSignals } from './signals'
export {
  DEFAULT_RETENTION_TOKENS,
  MIN_TURNS,
  planImportance,
  type ImportanceContext,
  type ImportanceItem,
  type ImportancePlan,
  type TargetRatio
} from './plan-importance'
