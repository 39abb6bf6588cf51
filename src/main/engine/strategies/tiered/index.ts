/** The tiered strategy (ADR 033 + Agent Zero): see ../README.md. */
export * from './types'
export { DEFAULT_TIERED_CONFIG, validateTieredConfig, type TieredConfig } from './config'
export { hasTopicPhrase, isTopicBoundary, type BoundaryDecision, type BoundaryInput } from './boundary'
export {
  addMessage,
  boundaryFor,
  currentAllocation,
  emptyTieredState,
  sealCurrentTopic,
  type AddMessageContext
} from './state'
export { getTieredContext, tierUsage, tieredTokens, topicTokens } from './view'
export {
  allocations,
  compressTiered,
  compressTieredAsync,
  compressTieredSteps,
  effectiveAllocations,
  type TieredBudget,
  type TieredResult
} from './compress'
