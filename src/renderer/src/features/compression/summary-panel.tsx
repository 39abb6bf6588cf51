import { useEffect, useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import type { Snapshot } from '../../../../shared/domain/snapshot'
import { ChevronDownIcon, PencilIcon, RefreshIcon, SummarizeIcon, UndoIcon } from '../../components/icons'
import { MarkdownText } from '../../components/markdown-text'
import { formatCount, formatTokens } from '../../lib/format-tokens'
import { formatFull } from '../../lib/relative-time'
import { useCompressionStore, type RunningCompression } from '../../stores/compression-store'
import { AttachmentManifest, ManifestBadge } from '../../components/attachment-manifest'
import { regenerateNow, summaryRegionId } from './compression-toasts'
import { SummaryDraftSection, SummaryTextEditor } from './summary-draft'
import { SourcedSummaryText } from './sourced-summary-text'
import { PinnedList } from './pinned-list'
import { strategyLabel, summarizerLabel } from './labels'
import './summary-panel.css'

/**
 * The Summary region at the top of the conversation (FR-6.1.2, FR-6.2): collapsed to a badge by
 * default, expanded it shows the summary and how it was made, with Undo and Regenerate. While a
 * summary is being written, its text streams in here, with Cancel.
 */
export function SummaryPanel({ sessionId }: { sessionId: string }) {
  const active = useCompressionStore((s) => s.active[sessionId] ?? null)
  const running = useCompressionStore((s) => s.running[sessionId] ?? null)
  const expanded = useCompressionStore((s) => s.expanded[sessionId] ?? false)
  const setExpanded = useCompressionStore((s) => s.setExpanded)
  const hasDraft = useCompressionStore((s) => !!s.draft[sessionId])
  const bodyId = useId()

  if (!active && !running && !hasDraft) return null
  const count = active?.content.messagesIncluded ?? 0

  return (
    <section
      id={summaryRegionId(sessionId)}
      className="summary-panel"
      aria-label="Summary"
      data-expanded={expanded || undefined}
      tabIndex={-1}
    >
      <div className="summary-bar">
        {active ? (
          <button
            type="button"
            className="summary-toggle"
            aria-expanded={expanded}
            aria-controls={bodyId}
            onClick={() => setExpanded(sessionId, !expanded)}
          >
            <SummarizeIcon className="summary-icon" />
            <span className="summary-title">Summary</span>
            <span className="summary-badge">
              {count} {count === 1 ? 'message' : 'messages'} summarized
            </span>
            <ManifestBadge sessionId={sessionId} />
            <ChevronDownIcon className="summary-chevron" />
          </button>
        ) : (
          <span className="summary-toggle summary-toggle-static">
            <SummarizeIcon className="summary-icon" />
            <span className="summary-title">Summary</span>
          </span>
        )}
        {running && <RunningBadge sessionId={sessionId} running={running} />}
      </div>
      {running && (running.type !== 'auto' || expanded) && <StreamingSummary running={running} />}
      <SummaryDraftSection sessionId={sessionId} disabled={!!running} />
      {active && expanded && (
        <div id={bodyId} className="summary-body">
          <ActiveSummary sessionId={sessionId} active={active} disabled={!!running} />
        </div>
      )}
    </section>
  )
}

function RunningBadge({ sessionId, running }: { sessionId: string; running: RunningCompression }) {
  const cancel = useCompressionStore((s) => s.cancel)
  const [cancelling, setCancelling] = useState(false)
  const what =
    running.type === 'regenerate'
      ? 'Regenerating the summary…'
      : running.messages > 0
        ? `Summarizing ${running.messages.toLocaleString()} ${running.messages === 1 ? 'message' : 'messages'}…`
        : 'Summarizing…'
  const share = running.part ? Math.floor((100 * running.part.done) / running.part.total) : undefined
  return (
    <span className="summary-running">
      <span className="spinner" aria-hidden="true" />
      <span role="status">
        {what}
        {share !== undefined && ` ${share}%`}
      </span>
      {share !== undefined && (
        <progress className="summary-progress" max={100} value={share} aria-label="Summary progress" />
      )}
      <button
        type="button"
        className="button button-small"
        disabled={cancelling}
        onClick={async () => {
          setCancelling(true)
          const failure = await cancel(sessionId)
          setCancelling(false)
          if (failure) toast.error('Could not cancel the summary', { description: failure })
        }}
      >
        Cancel
      </button>
    </span>
  )
}

/** The summary as the model writes it ('compression.progress'), following its end. */
function StreamingSummary({ running }: { running: RunningCompression }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = ref.current
    if (el) el.scrollTop = el.scrollHeight
  }, [running.text])
  return (
    <div ref={ref} className="summary-stream" aria-label="Summary so far" role="group" tabIndex={0}>
      {running.text ? (
        <MarkdownText text={running.text} streaming />
      ) : (
        <p className="muted">Reading the conversation…</p>
      )}
    </div>
  )
}

/**
 * " (automatically)", " (by hand)", or for a regenerated summary " (regenerated; first made
 * automatically)". A regenerated one replaces a version of the same range, so the summary it
 * restores on Undo is not the one it was cascaded from.
 */
function madeHow(c: Snapshot['content']): string {
  const regenerated = c.restoresSnapshotId !== undefined && c.restoresSnapshotId !== (c.baseSnapshotId ?? null)
  if (regenerated) return c.compressionType === 'auto' ? ' (regenerated; first made automatically)' : ' (regenerated)'
  return c.compressionType === 'auto' ? ' (automatically)' : ' (by hand)'
}

function SummaryDetails({ snapshot }: { snapshot: Snapshot }) {
  const c = snapshot.content
  const when = Date.parse(c.compressionTimestamp)
  return (
    <>
      <dl className="summary-meta">
        <div>
          <dt>Made</dt>
          <dd>
            {Number.isFinite(when) ? (
              <time dateTime={c.compressionTimestamp}>{formatFull(when)}</time>
            ) : (
              c.compressionTimestamp
            )}
            {madeHow(c)}
          </dd>
        </div>
        <div>
          <dt>Strategy</dt>
          <dd>{strategyLabel(c.strategy)}</dd>
        </div>
        <div>
          <dt>Summarizer</dt>
          <dd>{summarizerLabel(c.summarizer)}</dd>
        </div>
        <div>
          <dt>Context</dt>
          <dd>
            {formatTokens(c.contextTokensBefore)} → {formatTokens(c.contextTokensAfter)} tokens
          </dd>
        </div>
        <div>
          <dt>Messages</dt>
          <dd>
            {formatCount(c.originalTokenCount)} tokens in {c.messagesIncluded}{' '}
            {c.messagesIncluded === 1 ? 'message' : 'messages'}, now {formatCount(c.summaryTokenCount)}
          </dd>
        </div>
        {c.focus && (
          <div>
            <dt>Focus</dt>
            <dd>{c.focus}</dd>
          </div>
        )}
      </dl>
      {c.warnings.length > 0 && (
        <ul className="summary-warnings">
          {c.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      <div className="summary-text" role="group" aria-label="Summary text">
        <SourcedSummaryText snapshot={snapshot} />
      </div>
    </>
  )
}

/** The active summary with its actions, or the editor of its text (an edit is the user's, undoable). */
function ActiveSummary({ sessionId, active, disabled }: { sessionId: string; active: Snapshot; disabled: boolean }) {
  const [editing, setEditing] = useState(false)
  const editSummary = useCompressionStore((s) => s.editSummary)
  if (editing)
    return (
      <SummaryTextEditor
        initial={active.content.summaryText}
        label="Summary text"
        cancel={() => setEditing(false)}
        save={async (text) => {
          const failure = await editSummary(sessionId, text)
          if (failure) toast.error('Could not save the summary', { description: failure })
          else setEditing(false)
        }}
      />
    )
  return (
    <>
      {/* Capped and scrolled inside, so on a short window the newest message stays in view. */}
      <div className="summary-scroll" role="group" aria-label="Summary details" tabIndex={0}>
        <SummaryDetails snapshot={active} />
        <AttachmentManifest sessionId={sessionId} />
        <PinnedList sessionId={sessionId} />
      </div>
      <SummaryActions sessionId={sessionId} disabled={disabled} edit={() => setEditing(true)} />
    </>
  )
}

function SummaryActions({ sessionId, disabled, edit }: { sessionId: string; disabled: boolean; edit(): void }) {
  const undo = useCompressionStore((s) => s.undo)
  const [busy, setBusy] = useState(false)
  return (
    <div className="summary-actions">
      <p className="summary-actions-hint">
        The original messages are kept: they are still in the chat and in the full history.
      </p>
      <button
        type="button"
        className="button button-small"
        disabled={disabled || busy}
        onClick={async () => {
          setBusy(true)
          const failure = await undo(sessionId)
          setBusy(false)
          if (failure) toast.error('Could not undo the summary', { description: failure })
          else toast.success('Summary undone', { description: 'The context is back to what it was before it.' })
        }}
      >
        <UndoIcon width={14} height={14} />
        Undo
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={disabled || busy}
        onClick={() => void regenerateNow(sessionId)}
      >
        <RefreshIcon width={14} height={14} />
        Regenerate
      </button>
      <button type="button" className="button button-small" disabled={disabled || busy} onClick={edit}>
        <PencilIcon width={14} height={14} />
        Edit
      </button>
    </div>
  )
}
