import type { ContextUsage } from '../../../../shared/contract'
import { formatCount, formatTokens } from '../../lib/format-tokens'

/** How the counts were made, in words. */
export function counterDescription(counter: string): string {
  if (counter.startsWith('tiktoken:')) return `Counted exactly with tiktoken (${counter.slice('tiktoken:'.length)}).`
  if (counter.startsWith('api:')) return 'Counted exactly by the provider’s token counter.'
  if (counter === 'mixed') return 'Counted with several methods.'
  return 'Counts are estimates: this model has no local tokenizer.'
}

function Row({ label, value, sign, strong }: { label: string; value: number; sign?: '−'; strong?: boolean }) {
  return (
    <div className={strong ? 'usage-row usage-row-total' : 'usage-row'}>
      <dt>{label}</dt>
      <dd>
        {sign && <span aria-hidden="true">{sign} </span>}
        {formatCount(value)}
      </dd>
    </div>
  )
}

/** The popover under the meter: what is in the context, and the budget it must fit. */
export function UsageBreakdown({ usage }: { usage: ContextUsage }) {
  const { breakdown, budget } = usage
  return (
    <>
      <p className="usage-model">
        <span className="usage-model-name">{usage.modelLabel}</span>
        <span className="usage-model-window">{formatTokens(budget.window)} window</span>
      </p>
      <dl className="usage-list" aria-label="In the context">
        <Row label="System prompt" value={breakdown.system} />
        <Row label={`History (${usage.messages} ${usage.messages === 1 ? 'message' : 'messages'})`} value={breakdown.history} />
        <Row label="Draft" value={breakdown.draft} />
        <Row label="Request framing" value={breakdown.overhead} />
        <Row label={usage.exact ? 'In context' : 'In context (estimated)'} value={usage.tokens} strong />
      </dl>
      <dl className="usage-list" aria-label="Budget">
        <Row label="Context window" value={budget.window} />
        <Row label="Reserved for the reply" value={budget.reservedOutput} sign="−" />
        <Row label="Safety margin" value={budget.safetyMargin} sign="−" />
        <Row label="Usable" value={budget.usable} strong />
        <Row label={`Compression threshold (${budget.thresholdPercent}%)`} value={budget.threshold} />
      </dl>
      <ul className="usage-notes">
        {!usage.modelKnown && (
          <li>Distill does not know this model’s window, so it assumes a small one. Add the model under Settings → Custom models.</li>
        )}
        {usage.recounting && <li>Recounting the history for this model…</li>}
        <li>{counterDescription(usage.counter)}</li>
      </ul>
    </>
  )
}
