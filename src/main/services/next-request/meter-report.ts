import type { ContextUsage } from '../../../shared/contract'
import type { Snapshot } from '../../../shared/domain/snapshot'
import type { RecallPlan } from '../../engine/recall/plan-recall'
import { LARGE_MESSAGE_SHARE } from '../../engine/build-context'
import type { ModelSpec } from '../../models/catalog'
import { withDraft } from '../conversation/draft-conversation'
import { pinsReport } from '../conversation/pin-share'
import { buildModelRequest } from '../conversation/request-builder'
import type { Conversation, UsageService } from '../conversation/usage-service'
import type { SettingsService } from '../settings/settings-service'

export interface MeterDeps {
  usage: UsageService
  settings: SettingsService
  /** What sending a draft would recall (DESIGN §11), for the meter's breakdown. */
  recall?: (conv: Conversation) => RecallPlan
  /** The passages of other chats a plan holds, and those left out, for the inspector. */
  crossChat?: (sessionId: string, plan: RecallPlan) => ContextUsage['crossChat']
  /** The chat's next summary when it is being written ahead. */
  preparedSummary?: (sessionId: string) => ContextUsage['preparedSummary'] | undefined
  /** Tokens of the stored files in the messages after `cutoffSeq`, for this model: the meter's Attachments row. */
  attachmentTokens?: (sessionId: string, cutoffSeq: number, spec: ModelSpec) => number
}

export type Measured = ReturnType<typeof measure>

/**
 * The next request of a chat as the meter, the inspector and `distill context` report it: one
 * total (the budget's conversion of the counted parts), and, only when that passes the usable
 * budget, the request as it would be built now (what would be cut, or left out).
 */
export function measure(
  deps: MeterDeps,
  sessionId: string,
  options: { draft?: string; summary?: Snapshot; recall?: boolean; meter?: boolean } = {}
) {
  const { draft = '', summary, recall: withRecall = true, meter = false } = options
  const stored = deps.usage.conversation(sessionId, Infinity, summary, { estimate: meter })
  const c = draft.trim() ? withDraft(stored, draft, deps.usage.estimateText(draft, stored.spec)) : stored
  const draftTokens = c === stored ? 0 : c.pending!.tokens
  const recalled = withRecall && draft.trim() && deps.recall ? deps.recall(c) : undefined
  const recalledTokens = recalled?.tokens ?? 0
  const counted = c.total(recalledTokens)
  const auto = deps.settings.forChat(c.session).autoCompress
  // The meter needs the request only for what it could leave out or cut: with auto-compression
  // nothing is left out, and a draft within a message's share of the budget is never cut. So the
  // meter of a long chat over its window does not read the thousands of messages it would carry.
  const room = Math.max(0, c.budget.countedUsable - c.overheadTokens)
  const needsRequest = !meter || !auto || draftTokens > Math.floor(room * LARGE_MESSAGE_SHARE)
  const request = counted > c.budget.countedUsable && needsRequest ? buildModelRequest(c, recalled) : undefined
  return { stored, c, draftTokens, recalled, recalledTokens, counted, request, auto }
}

/** The meter's report of a measured state: every number the meter, the inspector and `distill context` show. */
export function report(deps: MeterDeps, sessionId: string, measured: Measured): ContextUsage {
  const { stored: c, draftTokens, recalled, recalledTokens, counted: rawTokens, request, auto } = measured
  // The stored files of the messages sent verbatim, their own row (their tokens are part of the history's).
  const files = Math.min(c.historyTokens, deps.attachmentTokens?.(sessionId, c.summary?.cutoffSeq ?? 0, c.spec) ?? 0)
  // Over the budget with the draft: would the draft itself be cut? (exact: the request was built)
  const draftCut = draftTokens > 0 ? (request?.inputCut?.tokens ?? 0) : 0
  const pins = pinsReport(c, deps.settings.get().pinShareLimit, request)
  const recount = deps.usage.recountState(sessionId)
  return {
    sessionId,
    provider: c.spec.provider,
    modelId: c.spec.id,
    modelLabel: c.spec.label,
    modelKnown: c.spec.known,
    thresholdSetting: c.thresholdSetting,
    draftCut,
    tokens: c.cost(rawTokens),
    // A send compresses first when the context passes the threshold; with compression off the
    // oldest messages would go (and the chat says so).
    compressionDue: auto && rawTokens > c.budget.countedThreshold,
    leftOut: auto ? 0 : (request?.leftOut?.messages ?? 0),
    breakdown: {
      system: c.systemTokens,
      summary: c.summaryTokens,
      // Pins sent in place are the Pinned row's, not History's.
      history: Math.max(0, c.historyTokens - files - (c.pinnedTokens - c.pinned.blockTokens)),
      draft: draftTokens,
      recalled: recalledTokens,
      overhead: c.overheadTokens,
      attachments: files,
      ...(pins ? { pinned: c.pinnedTokens } : {})
    },
    ...(pins ? { pins } : {}),
    recalledIds: recalled?.messageIds ?? [],
    ...(recalled && deps.crossChat ? { crossChat: deps.crossChat(sessionId, recalled) } : {}),
    messages: c.historyCount,
    summarizedMessages: c.summary?.content.messagesIncluded ?? 0,
    exact: c.exact,
    counter: c.counter,
    recounting: recount !== null,
    recountProgress: recount,
    preparedSummary: deps.preparedSummary?.(sessionId) ?? null,
    budget: c.budget
  }
}
