import type { ContextUsage } from '../../../../shared/contract'

export type PartKey =
  | 'system'
  | 'summary'
  | 'pinned'
  | 'recalled'
  | 'history'
  | 'attachments'
  | 'draft'
  | 'overhead'
  | 'reserved'
  | 'margin'
  | 'free'

export interface ContextPart {
  key: PartKey
  label: string
  tokens: number
  /** In the request (true), or room kept out of it (reserved output, margin, free space). */
  inRequest: boolean
}

/**
 * What the next request holds and the room around it, in the order of the window: the request (in
 * the order it goes on the wire: recalled passages last, with the pending input), the
 * free rest of the usable budget (where the threshold sits), then the safety margin and the output
 * reserved for the reply. The parts sum to the window unless the request is over budget.
 */
export function contextParts(usage: ContextUsage): ContextPart[] {
  const { breakdown, budget } = usage
  const messages = `${usage.messages} ${usage.messages === 1 ? 'message' : 'messages'}`
  const summarized = usage.summarizedMessages
  const recalled = usage.recalledIds.length
  return [
    { key: 'system', label: 'System prompt', tokens: breakdown.system, inRequest: true },
    {
      key: 'summary',
      label: summarized > 0 ? `Summary (of ${summarized} ${summarized === 1 ? 'message' : 'messages'})` : 'Summary',
      tokens: breakdown.summary,
      inRequest: true
    },
    // Sent word for word in every request, summarized or not (their own row, out of the history's).
    ...(breakdown.pinned !== undefined
      ? [
          {
            key: 'pinned' as const,
            label: `Pinned (${usage.pins?.count ?? 0} ${usage.pins?.count === 1 ? 'message' : 'messages'})`,
            tokens: breakdown.pinned,
            inRequest: true
          }
        ]
      : []),
    { key: 'history', label: `Retained messages (${messages})`, tokens: breakdown.history, inRequest: true },
    // Images and files of the retained messages, as their providers count them.
    ...(breakdown.attachments
      ? [{ key: 'attachments' as const, label: 'Attachments', tokens: breakdown.attachments, inRequest: true }]
      : []),
    // Found for the draft among the summarized originals; there is nothing to recall before a summary.
    // They ride at the end, with the pending message, so the history before them stays a cached prefix.
    ...(summarized > 0 || recalled > 0
      ? [
          {
            key: 'recalled' as const,
            label: `Recalled from history (${recalled} ${recalled === 1 ? 'message' : 'messages'})`,
            tokens: breakdown.recalled,
            inRequest: true
          }
        ]
      : []),
    { key: 'draft', label: 'Pending input (draft)', tokens: breakdown.draft, inRequest: true },
    { key: 'overhead', label: 'Request framing', tokens: breakdown.overhead, inRequest: true },
    { key: 'free', label: 'Free space', tokens: Math.max(0, budget.usable - usage.tokens), inRequest: false },
    { key: 'margin', label: 'Safety margin', tokens: budget.safetyMargin, inRequest: false },
    { key: 'reserved', label: 'Reserved output', tokens: budget.reservedOutput, inRequest: false }
  ]
}

/** The scale of the bar: the window, or more when the request overflows it. */
export function barScale(usage: ContextUsage): number {
  const { budget } = usage
  return Math.max(budget.window, usage.tokens + budget.reservedOutput + budget.safetyMargin, 1)
}
