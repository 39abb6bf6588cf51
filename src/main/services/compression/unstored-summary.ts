import type { Snapshot } from '../../../shared/domain/snapshot'
import { withUserNotes } from '../../../shared/domain/user-notes'
import type { Db } from '../../db/client'
import { findMessage } from '../../db/repositories/messages/messages-repo'
import type { Conversation } from '../conversation/conversation'
import type { RunRequest } from './compression-run'
import type { WrittenSummary } from './summaries/write-summary'

/**
 * The summary a run would store, as a snapshot that is not stored (id `next-summary`): what
 * `distill context` shows the next send would write first.
 */
export function unstoredSummary(
  db: Db,
  conv: Conversation,
  request: RunRequest,
  written: WrittenSummary,
  now: number
): Snapshot {
  const summaryTokens = conv.summaryTokensOf(written.text)
  return {
    id: 'next-summary',
    sessionId: conv.session.id,
    kind: 'summary',
    content: {
      ...request.content,
      summaryText: withUserNotes(written.text, request.content.userNotes),
      summarizer: written.summarizer,
      warnings: [...request.warnings, ...written.warnings],
      compressionTimestamp: new Date(now).toISOString(),
      summaryTokenCount: summaryTokens,
      contextTokensAfter: conv.cost(conv.totalAfter(request.coveredTokens, summaryTokens, request.cutoffId))
    },
    messageCutoffId: request.cutoffId,
    cutoffSeq: findMessage(db, request.cutoffId)?.seq ?? 0,
    tokenCount: summaryTokens,
    status: 'active',
    createdAt: now
  }
}
