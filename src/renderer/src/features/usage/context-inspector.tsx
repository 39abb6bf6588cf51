import * as Dialog from '@radix-ui/react-dialog'
import { Fragment, useEffect, useId } from 'react'
import type { ContextUsage } from '../../../../shared/contract'
import { formatCount, formatTokens } from '../../lib/format-tokens'
import { useReturnFocus } from '../../lib/use-return-focus'
import { useSessionDetails } from '../../stores/sessions-store'
import { useChatSettings, useGlobalSettings } from '../../stores/chat-settings'
import { useUiStore } from '../../stores/ui-store'
import { useUsageStore } from '../../stores/usage-store'
import { counterDescription } from './usage-breakdown'
import { CostDetails } from './cost-details'
import { ThresholdSource } from './threshold-source'
import { isEstimate } from './usage-level'
import { preparedNote } from './prepared-note'
import { recountNote } from './recount-note'
import { overBudgetNote } from './over-budget-note'
import { CALIBRATION_LABEL, calibrationTokens, signedCount } from './calibration-row'
import { pinsNote } from '../../../../shared/domain/pins'
import { barScale, contextParts, type ContextPart } from './context-parts'
import { CrossChatRecallList } from './cross-chat-recall-list'
import { SummarySourcesRow } from './summary-sources-row'
import '../../components/recall.css'
import './context-inspector.css'

/** "Context inspector": everything the next request holds, and the room around it, against the window. */
export function ContextInspector({ sessionId }: { sessionId: string }) {
  const open = useUiStore((s) => s.chatDialog === 'inspector')
  const setChatDialog = useUiStore((s) => s.setChatDialog)
  const focusHandlers = useReturnFocus()
  return (
    <Dialog.Root open={open} onOpenChange={(next) => setChatDialog(next ? 'inspector' : null)}>
      {open && (
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content
            className="dialog dialog-wide inspector-dialog"
            aria-describedby={undefined}
            {...focusHandlers}
          >
            <Dialog.Title className="dialog-title">Context inspector</Dialog.Title>
            {/* Only the body scrolls: the title and Close stay in view on a short window. */}
            <div className="inspector-scroll" role="group" aria-label="What the next request holds" tabIndex={0}>
              <InspectorBody sessionId={sessionId} />
            </div>
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="button">
                  Close
                </button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      )}
    </Dialog.Root>
  )
}

function percent(value: number, total: number): string {
  if (total <= 0) return '0%'
  const p = (value / total) * 100
  if (p > 0 && p < 0.1) return '<0.1%'
  return `${(Math.round(p * 10) / 10).toFixed(1).replace(/\.0$/, '')}%`
}

function InspectorBody({ sessionId }: { sessionId: string }) {
  const usage = useUsageStore((s) => s.usage[sessionId])
  const session = useSessionDetails(sessionId)
  const chat = useChatSettings(session)
  const globalAuto = useGlobalSettings().autoCompress
  const descriptionId = useId()

  useEffect(() => {
    useUsageStore.getState().refresh(sessionId, { now: true })
  }, [sessionId])

  if (!usage) {
    return (
      <p className="dialog-description" aria-busy="true">
        Counting…
      </p>
    )
  }

  const { budget } = usage
  const parts = contextParts(usage)
  const scale = barScale(usage)
  const inRequest = parts.filter((p) => p.inRequest)
  // Calibration can move the total away from the sum of its parts: the bar shows the total.
  const correction = calibrationTokens(usage)
  const counted = usage.tokens - correction
  const factor = counted > 0 ? usage.tokens / counted : 1
  const barTokens = (part: ContextPart) => (part.inRequest ? part.tokens * factor : part.tokens)
  const auto = chat ? chat.autoCompress : globalAuto
  const estimate = isEstimate(usage)

  return (
    <>
      <p id={descriptionId} className="dialog-description">
        What the next request to <strong className="dialog-subject">{usage.modelLabel}</strong> holds, in its{' '}
        {formatCount(budget.window)}-token window.{' '}
        {auto
          ? `Older messages are summarized automatically when the context passes ${formatCount(budget.threshold)} tokens (${budget.thresholdPercent}% of the usable ${formatCount(budget.usable)}).`
          : 'Automatic compression is off for this chat.'}
      </p>
      <ThresholdSource usage={usage} />

      <div className="context-bar-wrap">
        <div className="context-bar" role="img" aria-label={barLabel(usage)}>
          {parts.map((part) =>
            part.tokens > 0 ? (
              <span
                key={part.key}
                className="context-bar-segment"
                data-part={part.key}
                style={{ width: `${(barTokens(part) / scale) * 100}%` }}
                title={`${part.label}: ${formatCount(part.tokens)} tokens`}
              />
            ) : null
          )}
        </div>
        <span
          className="context-bar-threshold"
          style={{ left: `${Math.min(100, (budget.threshold / scale) * 100)}%` }}
          data-off={auto ? undefined : true}
          aria-hidden="true"
        >
          <span className="context-bar-threshold-label">
            {auto ? `Auto-compression ${budget.thresholdPercent}%` : 'Auto-compression off'}
          </span>
        </span>
      </div>

      <table className="inspector-table">
        <caption className="sr-only">The next request, part by part</caption>
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col" className="num">
              Of the window
            </th>
          </tr>
        </thead>
        <tbody>
          {inRequest.map((part) => (
            <Fragment key={part.key}>
              <PartRow part={part} window={budget.window} />
              {part.key === 'summary' && <SummarySourcesRow sessionId={sessionId} />}
            </Fragment>
          ))}
          {correction !== 0 && (
            <tr>
              <th scope="row">
                <span className="swatch" data-part="calibration" aria-hidden="true" />
                {CALIBRATION_LABEL}
              </th>
              <td className="num">{signedCount(correction, formatCount)}</td>
              <td className="num">{percent(Math.abs(correction), budget.window)}</td>
            </tr>
          )}
          <tr className="inspector-total">
            <th scope="row">{estimate ? 'In context (estimated)' : 'In context'}</th>
            <td className="num">{formatCount(usage.tokens)}</td>
            <td className="num">{percent(usage.tokens, budget.window)}</td>
          </tr>
          {parts
            .filter((p) => !p.inRequest)
            .map((part) => (
              <PartRow key={part.key} part={part} window={budget.window} />
            ))}
          <tr className="inspector-threshold-row">
            <th scope="row">
              <span className="swatch" data-part="threshold" aria-hidden="true" />
              Auto-compression threshold ({budget.thresholdPercent}% of usable)
            </th>
            <td className="num">{formatCount(budget.threshold)}</td>
            <td className="num">{percent(budget.threshold, budget.window)}</td>
          </tr>
          <tr className="inspector-total">
            <th scope="row">Context window</th>
            <td className="num">{formatCount(budget.window)}</td>
            <td className="num">100%</td>
          </tr>
        </tbody>
      </table>
      <CrossChatRecallList usage={usage} />

      <ul className="usage-notes inspector-notes">
        {overBudgetNote(usage) && <li className="usage-note-over">{overBudgetNote(usage)}</li>}
        {usage.pins && (
          <li className={usage.pins.percent > usage.pins.limit || usage.pins.cutTokens ? 'usage-note-over' : undefined}>
            {pinsNote(usage.pins)}
          </li>
        )}
        {usage.summarizedMessages > 0 && (
          <li>
            {usage.summarizedMessages} older {usage.summarizedMessages === 1 ? 'message is' : 'messages are'}{' '}
            represented by the summary; they stay in the chat and its full history.
          </li>
        )}
        {usage.summarizedMessages > 0 && (
          <li>
            {usage.recalledIds.length > 0
              ? 'Recalled: summarized originals that match the draft are sent again verbatim, dated, at the end of the request with your message (the history before them stays the same, so the provider can serve it from its cache).'
              : 'Type a message to see which summarized originals it would recall.'}
          </li>
        )}
        {preparedNote(usage) && <li>{preparedNote(usage)}</li>}
        {usage.recounting && <li>{recountNote(usage)}</li>}
        <li>{counterDescription(usage.counter, estimate)}</li>
      </ul>
      <CostDetails sessionId={sessionId} />
    </>
  )
}

function PartRow({ part, window }: { part: ContextPart; window: number }) {
  return (
    <tr data-part={part.key}>
      <th scope="row">
        <span className="swatch" data-part={part.key} aria-hidden="true" />
        {part.label}
      </th>
      <td className="num">{formatCount(part.tokens)}</td>
      <td className="num">{percent(part.tokens, window)}</td>
    </tr>
  )
}

function barLabel(usage: ContextUsage): string {
  const { budget } = usage
  return `${formatTokens(usage.tokens)} of ${formatTokens(budget.window)} tokens in context; ${formatTokens(
    budget.reservedOutput
  )} reserved for the reply, ${formatTokens(budget.safetyMargin)} safety margin, ${formatTokens(
    Math.max(0, budget.usable - usage.tokens)
  )} free.`
}
