import type { ContextUsage } from '../../../shared/contract'
import type { Snapshot } from '../../../shared/domain/snapshot'
import type { ModelSpec } from '../../models/catalog'
import type { CompressionService } from '../compression/compression-service'
import { buildModelRequest } from '../conversation/request-builder'
import type { UsageService } from '../conversation/usage-service'
import type { RecallService } from '../recall/recall-service'
import type { SettingsService } from '../settings/settings-service'
import { measure, report, type MeterDeps } from './meter-report'
import { createRequestPreparer } from './prepared-request'

export type NextRequestService = ReturnType<typeof createNextRequest>

/**
 * The owner of a chat's next request: the send, the meter, the context inspector and `distill
 * context` all ask here, and each is the same steps over the same floors below (compression if due,
 * the reader, Recall, the request builder), so what the inspector shows is what the send sends.
 * It sits on compression, Recall and the reader; only the chat service sits on it.
 */
export function createNextRequest(deps: {
  usage: UsageService
  compression: CompressionService
  recall: RecallService
  settings: SettingsService
  /** Tokens of the stored files in the messages after `cutoffSeq`, for this model: the meter's Attachments row. */
  attachmentTokens?: (sessionId: string, cutoffSeq: number, spec: ModelSpec) => number
  /** A read-only process never prepares a summary (the owner does). */
  readOnly?: boolean
}) {
  const { usage, compression, recall } = deps
  const meterDeps: MeterDeps = {
    usage,
    settings: deps.settings,
    recall: (conv) => recall.forRequest(conv),
    crossChat: (sessionId, plan) => recall.crossChat(sessionId, plan),
    preparedSummary: (sessionId) => compression.preparedState(sessionId),
    attachmentTokens: deps.attachmentTokens
  }

  return {
    /**
     * The request a send makes for the reply at `replySeq`: compressed first when due (a send never
     * waits for a model summary), then read, recalled into and built.
     */
    forSend: createRequestPreparer({ compression, usage, recall }),

    /**
     * The meter's report of the next request with `draft` as its message, as things stand (nothing
     * is compressed or written); `recall: false` leaves out what the draft would recall (while
     * typing). Typing may start a summary written ahead.
     */
    meter(sessionId: string, draft?: string, options: { recall?: boolean } = {}): ContextUsage {
      const measured = measure(meterDeps, sessionId, { draft, recall: options.recall ?? true, meter: true })
      if (draft?.trim() && !deps.readOnly) compression.prepareAhead(sessionId, 'typing')
      return report(meterDeps, sessionId, measured)
    },

    /**
     * What sending `draft` now would give the model, computed and not stored (`distill context`):
     * the summary a compression due first would write (offline), then the request after it and the
     * meter's report of the same state.
     */
    async inspect(sessionId: string, draft = '') {
      const summary = await compression.nextSummary(sessionId, draft)
      return { summary, ...this.built(sessionId, draft, summary) }
    },

    /** The request with `draft` as its message, built now (after `summary`, when given), and its report. */
    built(sessionId: string, draft = '', summary?: Snapshot) {
      const measured = measure(meterDeps, sessionId, { draft, summary })
      return {
        usage: report(meterDeps, sessionId, measured),
        conversation: measured.c,
        request: measured.request ?? buildModelRequest(measured.c, measured.recalled)
      }
    }
  }
}
