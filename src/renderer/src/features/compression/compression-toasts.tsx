import { DEFAULT_SETTINGS } from '../../../../shared/domain/settings'
import { toast } from 'sonner'
import type { CompressionReport } from '../../../../shared/contract'
import { formatCost } from '../../lib/format-cost'
import { formatTokens } from '../../lib/format-tokens'
import { useCompressionStore, type RunOptions, type RunOutcome } from '../../stores/compression-store'
import { useSettingsStore } from '../../stores/settings-store'
import { useUiStore } from '../../stores/ui-store'
import { ManifestNote } from '../../components/attachment-manifest'
import { plainPreview, reductionText } from './preview-text'
import './compression-toasts.css'

function notificationsOn(): boolean {
  return (useSettingsStore.getState().settings ?? DEFAULT_SETTINGS).notifications
}

/** Opens the chat, expands its Summary region and brings it into view. */
export function viewSummary(sessionId: string): void {
  const ui = useUiStore.getState()
  if (ui.selectedSessionId !== sessionId || ui.view !== 'chat') ui.openSession(sessionId)
  useCompressionStore.getState().setExpanded(sessionId, true)
  requestAnimationFrame(() => {
    const region = document.getElementById(summaryRegionId(sessionId))
    region?.scrollIntoView({ block: 'nearest' })
    region?.focus({ preventScroll: true })
  })
}

export function summaryRegionId(sessionId: string): string {
  return `summary-${sessionId}`
}

function Preview({ sessionId, report }: { sessionId: string; report: CompressionReport }) {
  const preview = plainPreview(report.summaryPreview)
  return (
    <span className="toast-summary">
      {preview && (
        <span className="toast-summary-preview">
          {preview}
          {report.summaryPreview.length >= 200 ? '…' : ''}
        </span>
      )}
      <span className="toast-summary-reduction">{reductionText(report.tokensBefore, report.tokensAfter)}</span>
      {report.fellBack && (
        <span className="toast-summary-note">The model could not be reached, so an offline summary was used.</span>
      )}
      {report.costUsd !== undefined && (
        <span className="toast-summary-note">The summary cost about {formatCost(report.costUsd)}.</span>
      )}
      <ManifestNote sessionId={sessionId} className="toast-summary-note" />
    </span>
  )
}

function autoDescription(report: CompressionReport): string | undefined {
  const text = autoNote(report)
  const cost = report.costUsd !== undefined ? `The summary cost about ${formatCost(report.costUsd)}.` : undefined
  return text && cost ? `${text} ${cost}` : (text ?? cost)
}

function autoNote(report: CompressionReport): string | undefined {
  if (report.fellBack) return 'The model could not be reached, so an offline summary was used.'
  const older = report.backlog ? `${report.backlog.messages.toLocaleString()} older messages` : ''
  if (report.backlog?.state === 'pending')
    return `Your message went at once with a summary of the newest part; the ${older} are being summarized in the background.`
  if (report.backlog?.state === 'done') return `The ${older} are in it now, with the quick summary’s part.`
  if (report.background === 'writing')
    return 'A quick offline summary went in so your message did not wait. The model’s summary replaces it when it is ready.'
  if (report.background === 'replaced') return 'It replaced the quick summary made while you chatted.'
  if (report.background === 'prepared') return 'It was written ahead in the background, so your message did not wait.'
  return undefined
}

/** FR-1.6: auto-compression, non-intrusive, unless notifications are off. */
export function notifyAutoCompression(sessionId: string, report: CompressionReport): void {
  if (!notificationsOn()) return
  const context = `context now ${formatTokens(report.tokensAfter)} tokens`
  const title =
    report.backlog?.state === 'done'
      ? `Older history summarized · ${context}`
      : report.background === 'replaced'
        ? `Model summary ready · ${context}`
        : `Summarized ${report.messagesSummarized} ${report.messagesSummarized === 1 ? 'message' : 'messages'} · ${context}`
  toast(title, {
    id: `auto-compression-${sessionId}`,
    description: (
      <>
        {autoDescription(report)} <ManifestNote sessionId={sessionId} />
      </>
    ),
    action: { label: 'View summary', onClick: () => viewSummary(sessionId) },
    duration: 8000
  })
}

/** A model summary written in the background failed: the quick summary stays (FR-5.1.1). */
export function notifyAutoCompressionFailed(sessionId: string, message: string): void {
  if (!notificationsOn()) return
  toast('The model summary could not be written', {
    id: `auto-compression-${sessionId}`,
    description: `${message.replace(/ Retry, or choose the offline extractive summarizer\.$/, '')} The quick offline summary stays in the context.`,
    action: { label: 'View summary', onClick: () => viewSummary(sessionId) },
    duration: 10_000
  })
}

/** FR-2.4.3: a manual run's outcome with the preview and the reduction; a failure offers Retry. */
let outcomes = 0

function notifyOutcome(
  sessionId: string,
  outcome: RunOutcome,
  kind: 'summarize' | 'regenerate',
  retry: () => void
): void {
  // A fresh id each time: clicking Retry dismisses the failure toast, and a toast reusing the id of
  // one that is leaving can be swallowed by its exit.
  const id = `compression-${sessionId}-${++outcomes}`
  if (outcome.ok) {
    if (!notificationsOn()) return
    if (outcome.report.draft) {
      toast.success('Draft summary ready for review', {
        id,
        description: 'It replaces nothing until you accept it in the Summary panel.',
        action: { label: 'Review it', onClick: () => viewSummary(sessionId) },
        duration: 10_000
      })
      return
    }
    toast.success(kind === 'regenerate' ? 'Summary regenerated' : 'Conversation summarized', {
      id,
      description: <Preview sessionId={sessionId} report={outcome.report} />,
      action: { label: 'View summary', onClick: () => viewSummary(sessionId) },
      duration: 10_000
    })
  } else if (outcome.cancelled) {
    toast('Summary cancelled', { id, description: 'The conversation was left as it was.' })
  } else if (outcome.code === 'nothing_to_do') {
    // Retrying would change nothing: say why instead.
    toast(outcome.message, { id })
  } else {
    toast.error(kind === 'regenerate' ? 'Could not regenerate the summary' : 'Summary failed', {
      id,
      description: outcome.message,
      action: { label: 'Retry', onClick: retry },
      duration: 15_000
    })
  }
}

/** Runs a manual compression and reports how it went. */
export async function summarizeNow(sessionId: string, options: RunOptions): Promise<RunOutcome> {
  const outcome = await useCompressionStore.getState().run(sessionId, options)
  notifyOutcome(sessionId, outcome, 'summarize', () => void summarizeNow(sessionId, options))
  return outcome
}

export async function regenerateNow(sessionId: string, focus?: string): Promise<RunOutcome> {
  const outcome = await useCompressionStore.getState().regenerate(sessionId, focus)
  notifyOutcome(sessionId, outcome, 'regenerate', () => void regenerateNow(sessionId, focus))
  return outcome
}
