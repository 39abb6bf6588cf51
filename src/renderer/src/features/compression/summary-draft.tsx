import { useState, type ReactNode } from 'react'
import { toast } from 'sonner'
import type { SummaryDraft } from '../../../../shared/contract'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { PencilIcon, RefreshIcon } from '../../components/icons'
import { formatCount } from '../../lib/format-tokens'
import { useCompressionStore } from '../../stores/compression-store'
import { SourcedSummaryText } from './sourced-summary-text'
import './summary-draft.css'

/** A textarea for a summary's text, with Save and Cancel; what is saved is marked as the user's. */
export function SummaryTextEditor({
  initial,
  label,
  save,
  cancel
}: {
  initial: string
  label: string
  save(text: string): Promise<void>
  cancel(): void
}) {
  const [text, setText] = useState(initial)
  const [busy, setBusy] = useState(false)
  return (
    <div className="summary-editor">
      <textarea
        className="input summary-editor-text"
        aria-label={label}
        value={text}
        rows={10}
        autoFocus
        onChange={(event) => setText(event.target.value)}
      />
      <p className="summary-editor-hint">
        Your text is kept as you wrote it: later summaries carry it forward instead of condensing it.
      </p>
      <div className="summary-actions">
        <button type="button" className="button button-small button-ghost" disabled={busy} onClick={cancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-small button-primary"
          disabled={busy || !text.trim()}
          onClick={async () => {
            setBusy(true)
            await save(text)
            setBusy(false)
          }}
        >
          Save text
        </button>
      </div>
    </div>
  )
}

function DraftButton(props: { label: string; icon?: ReactNode; kind?: string; disabled: boolean; onClick(): void }) {
  return (
    <button
      type="button"
      className={`button button-small${props.kind ? ` button-${props.kind}` : ''}`}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.icon}
      {props.label}
    </button>
  )
}

/** What accepting the draft does now, in words. */
function draftSize(draft: SummaryDraft): string {
  const n = draft.newMessages
  const all = draft.snapshot.content.messagesIncluded
  // Compared with the summary in use, when there is one.
  const covered =
    n === all
      ? ''
      : n > 0
        ? ` (${n} more than the summary in use)`
        : n === 0
          ? ' (the same as the summary in use)'
          : ` (the summary in use covers ${-n} more; accepting folds them in)`
  const effect =
    draft.freesTokens >= 0
      ? `frees ${formatCount(draft.freesTokens)} tokens`
      : `adds ${formatCount(-draft.freesTokens)} tokens`
  return `Covers ${all} ${all === 1 ? 'message' : 'messages'}${covered} · ${formatCount(draft.tokens)} tokens · ${effect}`
}

/**
 * Review before the swap: the summary waiting in the Summary panel. It replaces nothing until the
 * user accepts it; they can edit it (their text is then theirs, carried by later summaries),
 * regenerate it with a focus, or discard it.
 */
export function SummaryDraftSection({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const draft = useCompressionStore((s) => s.draft[sessionId] ?? null)
  const { editDraft, acceptDraft, discardDraft, regenerateDraft } = useCompressionStore.getState()
  const [editing, setEditing] = useState(false)
  const [focus, setFocus] = useState('')
  const [busy, setBusy] = useState(false)
  const [confirmDiscard, setConfirmDiscard] = useState(false)
  if (!draft) return null
  const { snapshot } = draft
  const act = async (what: string, run: () => Promise<string | null>) => {
    setBusy(true)
    const failure = await run()
    setBusy(false)
    if (failure) toast.error(`Could not ${what}`, { description: failure })
    return !failure
  }
  // Said either way: the panel's draft just goes, and the messages stay as they were.
  const discard = async () => {
    if (await act('discard the draft', () => discardDraft(sessionId, snapshot.id)))
      toast('Draft discarded', { description: 'Nothing was summarized: the messages stay as they were.' })
  }
  return (
    <div className="summary-draft" role="group" aria-label="Draft summary">
      <ConfirmDialog
        open={confirmDiscard}
        onOpenChange={setConfirmDiscard}
        title="Discard the draft and your edits?"
        description="The text you wrote into this draft goes with it. Nothing was summarized: the messages stay as they were."
        confirmLabel="Discard draft"
        destructive
        onConfirm={async () => {
          setConfirmDiscard(false)
          await discard()
        }}
      />
      <div className="summary-draft-head">
        <span className="summary-draft-title">Draft summary</span>
        <span className="summary-draft-state">waiting for you</span>
        {snapshot.content.editedByUser && <span className="summary-badge">Your text</span>}
      </div>
      <p className="summary-draft-size">{draftSize(draft)}</p>
      {editing ? (
        <SummaryTextEditor
          initial={snapshot.content.summaryText}
          label="Draft summary text"
          cancel={() => setEditing(false)}
          save={async (text) => {
            if (await act('save the draft', () => editDraft(sessionId, snapshot.id, text))) setEditing(false)
          }}
        />
      ) : (
        <>
          {/* Capped and scrolled inside (focusable, so the keyboard scrolls it too). */}
          <div className="summary-text summary-draft-text" role="group" aria-label="Draft summary text" tabIndex={0}>
            <SourcedSummaryText snapshot={snapshot} />
          </div>
          <div className="summary-actions summary-draft-actions">
            <input
              className="input summary-draft-focus"
              aria-label="Focus for a regenerated draft"
              placeholder="Focus (optional), e.g. the decisions"
              maxLength={2000}
              value={focus}
              onChange={(event) => setFocus(event.target.value)}
            />
            <DraftButton
              label="Regenerate"
              icon={<RefreshIcon width={14} height={14} />}
              disabled={disabled || busy}
              onClick={async () => {
                setBusy(true)
                const outcome = await regenerateDraft(sessionId, focus)
                setBusy(false)
                if (!outcome.ok && !outcome.cancelled)
                  toast.error('Could not regenerate the draft', { description: outcome.message })
              }}
            />
            <DraftButton
              label="Edit"
              icon={<PencilIcon width={14} height={14} />}
              disabled={disabled || busy}
              onClick={() => setEditing(true)}
            />
            <DraftButton
              label="Discard"
              kind="ghost"
              disabled={disabled || busy}
              onClick={() => (snapshot.content.editedByUser ? setConfirmDiscard(true) : void discard())}
            />
            <DraftButton
              label="Accept"
              kind="primary"
              disabled={disabled || busy}
              onClick={async () => {
                if (await act('accept the draft', () => acceptDraft(sessionId, snapshot.id)))
                  toast.success('Summary accepted', {
                    description: 'Undo in the Summary panel brings back what was before.'
                  })
              }}
            />
          </div>
        </>
      )}
    </div>
  )
}
