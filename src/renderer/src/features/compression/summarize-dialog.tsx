import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useId, useRef, useState } from 'react'
import type { CompressionPreview } from '../../../../shared/contract'
import { api } from '../../api/client'
import { errorMessage } from '../../api/api-error'
import { formatCost } from '../../lib/format-cost'
import { formatCount, formatTokens } from '../../lib/format-tokens'
import { useReturnFocus } from '../../lib/use-return-focus'
import { useGlobalSettings } from '../../stores/chat-settings'
import { useCompressionStore } from '../../stores/compression-store'
import { useUiStore } from '../../stores/ui-store'
import { summarizeNow } from './compression-toasts'
import { belowMinimumNote, MAX_RETENTION, nothingToSummarizeNote, parseRetention } from './retention'
import './summarize-dialog.css'

const PREVIEW_DEBOUNCE_MS = 300
/** From this many requests to the summarization model, the dialog says before the run that it is long. */
const LONG_RUN_REQUESTS = 10

/** Who writes the summary, in how many requests, and about what it costs. */
function modelRunNote({ summarizationModel, summaryRequests, estimatedCostUsd }: CompressionPreview): string {
  const requests = summaryRequests === 1 ? 'one request' : `up to ${formatCount(summaryRequests)} requests`
  const cost = estimatedCostUsd === null ? '' : `, about ${formatCost(estimatedCostUsd)}`
  return `${summarizationModel} writes it in ${requests}${cost}.`
}
/**
 * "Summarize conversation history" (FR-2.3): what a manual compression would do, with an optional
 * focus and retention override. Summarizing closes it; the summary then streams into the Summary
 * region, where it can be cancelled, and the composer stays usable.
 */
export function SummarizeDialog({ sessionId }: { sessionId: string }) {
  const open = useUiStore((s) => s.chatDialog === 'summarize')
  const setChatDialog = useUiStore((s) => s.setChatDialog)
  const focusHandlers = useReturnFocus()
  return (
    <Dialog.Root open={open} onOpenChange={(next) => setChatDialog(next ? 'summarize' : null)}>
      {open && (
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog dialog-wide summarize-dialog" {...focusHandlers}>
            <SummarizeForm sessionId={sessionId} onDone={() => setChatDialog(null)} />
          </Dialog.Content>
        </Dialog.Portal>
      )}
    </Dialog.Root>
  )
}

type PreviewState =
  | { status: 'loading'; preview: CompressionPreview | null }
  | { status: 'ready'; preview: CompressionPreview }
  | { status: 'error'; preview: CompressionPreview | null; error: string }

function SummarizeForm({ sessionId, onDone }: { sessionId: string; onDone(): void }) {
  const running = useCompressionStore((s) => !!s.running[sessionId])
  const [focus, setFocus] = useState('')
  // What Settings keeps verbatim ("Recent tokens kept verbatim"), unless changed here for this summary.
  const keptBySettings = useGlobalSettings().retentionTokens
  const [typed, setRetention] = useState<string | null>(null)
  const retention = typed ?? String(keptBySettings)
  const [state, setState] = useState<PreviewState>({ status: 'loading', preview: null })
  const seq = useRef(0)
  const focusHintId = useId()
  const retentionHintId = useId()
  const retentionErrorId = useId()
  const descriptionId = useId()

  const parsed = parseRetention(retention)

  // The preview, at once when the dialog opens, then a moment after the retention changes.
  const first = useRef(true)
  useEffect(() => {
    if (parsed.error) return
    const mine = ++seq.current
    const delay = first.current ? 0 : PREVIEW_DEBOUNCE_MS
    first.current = false
    const timer = setTimeout(async () => {
      setState((s) => ({ status: 'loading', preview: s.preview }))
      try {
        const preview = await api.request(
          'compression.preview',
          parsed.value === undefined ? { sessionId } : { sessionId, retentionTokens: parsed.value }
        )
        if (mine === seq.current) setState({ status: 'ready', preview })
      } catch (error) {
        if (mine === seq.current) setState((s) => ({ status: 'error', preview: s.preview, error: errorMessage(error) }))
      }
    }, delay)
    return () => clearTimeout(timer)
  }, [sessionId, parsed.value, parsed.error])

  const preview = state.preview
  const nothingToDo = state.status === 'ready' && state.preview.messagesToSummarize === 0
  const canRun = state.status === 'ready' && !nothingToDo && !parsed.error && !running

  function submit(event: { preventDefault(): void }) {
    event.preventDefault()
    if (!canRun) return
    onDone()
    void summarizeNow(sessionId, { focus, retentionTokens: parsed.value })
  }

  return (
    <form onSubmit={submit} aria-describedby={descriptionId} noValidate>
      <Dialog.Title className="dialog-title">Summarize conversation history</Dialog.Title>
      <Dialog.Description id={descriptionId} className="dialog-description">
        Older messages are replaced in the model’s context by one summary. The originals stay in the chat and in its
        full history, and the summary can be undone.
      </Dialog.Description>

      <dl className="preview-grid" aria-busy={state.status === 'loading'}>
        <PreviewStat label="Messages in this chat" value={preview ? formatCount(preview.totalMessages) : '–'} />
        <PreviewStat label="Messages to summarize" value={preview ? formatCount(preview.messagesToSummarize) : '–'} />
        <PreviewStat
          label="Tokens now"
          value={preview ? formatTokens(preview.tokensBefore) : '–'}
          title={preview ? `${formatCount(preview.tokensBefore)} tokens` : undefined}
        />
        <PreviewStat
          label="Tokens after (estimated)"
          value={preview ? `≈ ${formatTokens(preview.estimatedTokensAfter)}` : '–'}
          title={preview ? `${formatCount(preview.estimatedTokensAfter)} tokens` : undefined}
        />
      </dl>
      {/* With nothing to summarize, the note below says why; "the summary gets…" would promise one. */}
      {preview && !nothingToDo && (
        <p className="preview-note">
          {preview.messagesKept > 0
            ? `The newest ${preview.messagesKept} ${preview.messagesKept === 1 ? 'message stays' : 'messages stay'} word for word. `
            : 'Every message is summarized. '}
          {preview.summaryExists && 'The current summary is folded into the new one. '}
          {/* The target is a ceiling: on a short chat it is larger than the chat itself, and "aims at" read as a promise. */}
          {preview.targetSummaryTokens < preview.tokensBefore
            ? `The summary gets at most about ${formatCount(preview.targetSummaryTokens)} tokens.`
            : 'The summary will be shorter than the messages it replaces.'}
          {preview.summarizationModel && preview.messagesToSummarize > 0 && ` ${modelRunNote(preview)}`}
        </p>
      )}
      {preview && preview.summaryRequests >= LONG_RUN_REQUESTS && !nothingToDo && (
        <p className="dialog-warning" role="note">
          This is a long run: {preview.summarizationModel}’s window is small for these messages, so the summary is
          written in up to {formatCount(preview.summaryRequests)} parts, one after another. It can be cancelled from the
          Summary while it runs.
        </p>
      )}
      {state.status === 'error' && (
        <p className="field-error" role="alert">
          Could not work out the numbers: {state.error}
        </p>
      )}
      {nothingToDo && (
        <p className="dialog-warning" role="status">
          {nothingToSummarizeNote(state.preview, parsed.value)}
        </p>
      )}
      {preview?.belowMinimum && !nothingToDo && preview.warnings.length === 0 && (
        <p className="dialog-warning" role="note">
          {belowMinimumNote(preview)}
        </p>
      )}
      {preview && preview.warnings.length > 0 && (
        <ul className="dialog-warning dialog-warning-list">
          {preview.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}

      <div className="dialog-field">
        <label htmlFor={`${descriptionId}-focus`} className="dialog-label">
          Focus
        </label>
        <textarea
          id={`${descriptionId}-focus`}
          className="input textarea focus-input"
          aria-describedby={focusHintId}
          placeholder="e.g. keep the API design decisions"
          rows={2}
          maxLength={2000}
          value={focus}
          onChange={(event) => setFocus(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit(event)
          }}
        />
        <p id={focusHintId} className="dialog-field-hint">
          Optional: what the summary should keep in detail.
        </p>
      </div>

      <fieldset className="dialog-advanced">
        <legend>Advanced</legend>
        <div className="dialog-field dialog-field-inline">
          <label htmlFor={`${descriptionId}-retention`} className="dialog-label">
            Keep recent tokens
          </label>
          <span className="input-with-unit">
            <input
              id={`${descriptionId}-retention`}
              type="number"
              className="input input-number retention-input"
              inputMode="numeric"
              min={0}
              max={MAX_RETENTION}
              step={100}
              placeholder="0"
              aria-describedby={parsed.error ? `${retentionErrorId} ${retentionHintId}` : retentionHintId}
              aria-invalid={parsed.error ? true : undefined}
              value={retention}
              onChange={(event) => setRetention(event.target.value)}
            />
            <span className="input-unit" aria-hidden="true">
              tokens
            </span>
          </span>
        </div>
        {parsed.error && (
          <p id={retentionErrorId} className="field-error">
            {parsed.error}
          </p>
        )}
        <p id={retentionHintId} className="dialog-field-hint">
          The newest messages up to this many tokens stay word for word ({formatCount(keptBySettings)} in Settings, as
          for automatic summaries). Empty or 0 summarizes everything.
        </p>
      </fieldset>

      <div className="dialog-actions">
        {running && <span className="dialog-hint">A summary is being written for this chat.</span>}
        <Dialog.Close asChild>
          <button type="button" className="button">
            Cancel
          </button>
        </Dialog.Close>
        <button type="submit" className="button button-primary" disabled={!canRun}>
          Summarize
        </button>
      </div>
    </form>
  )
}

function PreviewStat({ label, value, title }: { label: string; value: string; title?: string }) {
  return (
    <div className="preview-stat">
      <dt className="preview-stat-label">{label}</dt>
      <dd className="preview-stat-value" title={title}>
        {value}
      </dd>
    </div>
  )
}
