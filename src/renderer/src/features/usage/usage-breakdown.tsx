import { pinsNote } from '../../../../shared/domain/pins'
import type { ContextUsage } from '../../../../shared/contract'
import type { Session } from '../../../../shared/domain/session'
import { formatCount, formatTokens } from '../../lib/format-tokens'
import { isEstimate } from './usage-level'
import { CALIBRATION_LABEL, calibrationTokens, signedCount } from './calibration-row'
import { preparedNote } from './prepared-note'
import { recountNote } from './recount-note'
import { thresholdNoteText } from './threshold-note'
import { overBudgetNote } from './over-budget-note'
import { windowAssumed } from './window-assumed'

/** How the counts were made, in words. */
export function counterDescription(counter: string, estimate: boolean): string {
  if (counter.startsWith('tiktoken:'))
    return `Counted exactly with OpenAI’s ${counter.slice('tiktoken:'.length)} tokenizer.`
  if (counter.startsWith('api:')) return 'Counted exactly by the provider’s token counter.'
  if (counter === 'mixed') return estimate ? 'Counts are estimates in part.' : 'Counted exactly.'
  if (counter === 'estimate:anthropic' || counter === 'estimate:gemini') {
    return 'Counts are estimates for now: the provider counts each message exactly once it is sent.'
  }
  return 'Counts are estimates: Distill has no exact tokenizer for this model.'
}

function Row({
  label,
  value,
  sign,
  strong
}: {
  label: string
  value: number
  /** '−': room taken from the window (said by the label); 'signed': a correction, its sign read out. */
  sign?: '−' | 'signed'
  strong?: boolean
}) {
  return (
    <div className={strong ? 'usage-row usage-row-total' : 'usage-row'}>
      <dt>{label}</dt>
      <dd>
        {sign === '−' && <span aria-hidden="true">− </span>}
        {sign === 'signed' ? signedCount(value, formatCount) : formatCount(value)}
      </dd>
    </div>
  )
}

/**
 * The popover under the meter: what is in the context, and the budget it must fit; then one quiet
 * line about what the last reply took from the provider's prompt cache (`lastReply`, once known).
 */
export function UsageBreakdown({
  usage,
  session,
  lastReply
}: {
  usage: ContextUsage
  /** The chat, for the window it may set itself. */
  session: Pick<Session, 'contextWindow'> | null
  lastReply?: string | null
}) {
  const { breakdown, budget } = usage
  const estimate = isEstimate(usage)
  const calibration = calibrationTokens(usage)
  return (
    <>
      <p className="usage-model">
        <span className="usage-model-name">{usage.modelLabel}</span>
        <span className="usage-model-window">{formatTokens(budget.window)} window</span>
      </p>
      <dl className="usage-list">
        <Row label="System prompt" value={breakdown.system} />
        {(breakdown.summary > 0 || usage.summarizedMessages > 0) && (
          <Row
            label={`Summary (of ${usage.summarizedMessages} ${usage.summarizedMessages === 1 ? 'message' : 'messages'})`}
            value={breakdown.summary}
          />
        )}
        {breakdown.pinned !== undefined && (
          <Row
            label={`Pinned (${usage.pins?.count ?? 0} ${usage.pins?.count === 1 ? 'message' : 'messages'})`}
            value={breakdown.pinned}
          />
        )}
        <Row
          label={`History (${usage.messages} ${usage.messages === 1 ? 'message' : 'messages'})`}
          value={breakdown.history}
        />
        {!!breakdown.attachments && <Row label="Attachments" value={breakdown.attachments} />}
        {/* At the end of the request, with the message: where the wire puts them, after the cached history. */}
        {(breakdown.recalled > 0 || usage.summarizedMessages > 0) && (
          <Row
            label={`Recalled from history (${usage.recalledIds.length} ${usage.recalledIds.length === 1 ? 'message' : 'messages'})`}
            value={breakdown.recalled}
          />
        )}
        <Row label="Draft" value={breakdown.draft} />
        <Row label="Request framing" value={breakdown.overhead} />
        {/* The provider counts differently from Distill: the total is its count, so the rows add up to it. */}
        {calibration !== 0 && <Row label={CALIBRATION_LABEL} value={calibration} sign="signed" />}
        <Row label={estimate ? 'In context (estimated)' : 'In context'} value={usage.tokens} strong />
      </dl>
      <dl className="usage-list">
        <Row label="Context window" value={budget.window} />
        <Row label="Reserved for the reply" value={budget.reservedOutput} sign="−" />
        <Row label="Safety margin" value={budget.safetyMargin} sign="−" />
        <Row label="Usable" value={budget.usable} strong />
        <Row label={`Compression threshold (${budget.thresholdPercent}%)`} value={budget.threshold} />
      </dl>
      {lastReply && <p className="usage-cost">{lastReply}</p>}
      <ul className="usage-notes">
        {overBudgetNote(usage) && <li className="usage-note-over">{overBudgetNote(usage)}</li>}
        {usage.pins && (usage.pins.percent > usage.pins.limit || !!usage.pins.cutTokens) && (
          <li className="usage-note-over">{pinsNote(usage.pins)}</li>
        )}
        {windowAssumed(usage, session) && (
          <li>
            Distill does not know this model’s window, so it assumes a small one. Add the model under Settings → Custom
            models, or set this chat’s window in Chat settings.
          </li>
        )}
        <li>{thresholdNoteText(usage)}</li>
        {preparedNote(usage) && <li>{preparedNote(usage)}</li>}
        {usage.recounting && <li>{recountNote(usage)}</li>}
        <li>{counterDescription(usage.counter, estimate)}</li>
        <li className="usage-note-hint">Click the meter to inspect the context.</li>
      </ul>
    </>
  )
}
