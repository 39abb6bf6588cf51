import * as Dialog from '@radix-ui/react-dialog'
import { useId, useState } from 'react'
import { toast } from 'sonner'
import type { RouteInput } from '../../../../../shared/contract'
import type { Session, Strategy } from '../../../../../shared/domain/session'
import { errorMessage } from '../../../api/api-error'
import { SlidersIcon } from '../../../components/icons'
import { useReturnFocus } from '../../../lib/use-return-focus'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useSessionDetails, useSessionsStore } from '../../../stores/sessions-store'
import { useGlobalSettings } from '../../../stores/chat-settings'
import { useUiStore } from '../../../stores/ui-store'
import { useUsageStore } from '../../../stores/usage-store'
import { strategyLabel } from '../../compression/labels'
import { ChatThresholdField } from './chat-threshold-field'
import { ChatWindowField } from './chat-window-field'
import { ChatReviewField } from './chat-review-field'
import './chat-settings-dialog.css'

type Tristate = 'inherit' | 'on' | 'off'

function toTristate(value: boolean | null): Tristate {
  return value === null ? 'inherit' : value ? 'on' : 'off'
}

const STRATEGIES: Strategy[] = ['rolling', 'tiered', 'importance']

/** The header button of a chat's own settings. */
export function ChatSettingsButton({ sessionId }: { sessionId: string }) {
  const session = useSessionDetails(sessionId)
  const setChatDialog = useUiStore((s) => s.setChatDialog)
  const overridden =
    session !== null &&
    (session.autoCompress !== null ||
      session.strategy !== null ||
      session.recall !== null ||
      session.reviewSummaries != null ||
      session.contextWindow !== null ||
      session.thresholdPercent !== null)
  return (
    <button
      type="button"
      className="icon-button header-button"
      aria-label="Chat settings"
      title={overridden ? 'Chat settings (this chat has its own)' : 'Chat settings'}
      data-active={overridden || undefined}
      disabled={!session}
      onClick={() => setChatDialog('chat-settings')}
    >
      <SlidersIcon />
      {overridden && <span className="header-button-dot" aria-hidden="true" />}
    </button>
  )
}

/** "Chat settings": per-chat overrides of the compression settings (null = follow the global one). */
export function ChatSettingsDialog({ sessionId }: { sessionId: string }) {
  const open = useUiStore((s) => s.chatDialog === 'chat-settings')
  const setChatDialog = useUiStore((s) => s.setChatDialog)
  const session = useSessionDetails(sessionId)
  const hasMessages = useChatStore((s) => (s.threads[sessionId]?.messages.length ?? 0) > 0)
  const focusHandlers = useReturnFocus()
  return (
    <Dialog.Root open={open} onOpenChange={(next) => setChatDialog(next ? 'chat-settings' : null)}>
      {open && session && (
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog chat-settings-dialog" {...focusHandlers}>
            <Dialog.Title className="dialog-title">Chat settings</Dialog.Title>
            <Dialog.Description className="dialog-description">
              Choices for this chat only; “Inherit” follows Settings.
            </Dialog.Description>
            <ChatSettingsForm session={session} />
            <div className="dialog-actions">
              <button
                type="button"
                className="button button-ghost dialog-leading-button"
                disabled={!hasMessages}
                onClick={() => setChatDialog('summarize')}
              >
                Summarize now…
              </button>
              <Dialog.Close asChild>
                <button type="button" className="button">
                  Done
                </button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      )}
    </Dialog.Root>
  )
}

function ChatSettingsForm({ session }: { session: Session }) {
  const update = useSessionsStore((s) => s.update)
  const { autoCompress: globalAuto, strategy: globalStrategy, recallEnabled: globalRecall } = useGlobalSettings()
  const [saving, setSaving] = useState(false)
  const autoId = useId()
  const strategyId = useId()
  const recallId = useId()

  async function save(change: Omit<RouteInput<'sessions.update'>, 'id'>) {
    setSaving(true)
    try {
      await update(session.id, change)
      useUsageStore.getState().refresh(session.id, { now: true })
    } catch (error) {
      toast.error('Could not save the chat settings', { description: errorMessage(error) })
    } finally {
      setSaving(false)
    }
  }

  return (
    <div className="chat-settings-form">
      <div className="dialog-field">
        <label htmlFor={autoId} className="dialog-label">
          Auto-compress this chat
        </label>
        <select
          id={autoId}
          className="input select"
          aria-describedby={`${autoId}-hint`}
          disabled={saving}
          value={toTristate(session.autoCompress)}
          onChange={(event) => {
            const value = event.target.value as Tristate
            void save({ autoCompress: value === 'inherit' ? null : value === 'on' })
          }}
        >
          <option value="inherit">Inherit from Settings ({globalAuto ? 'on' : 'off'})</option>
          <option value="on">On</option>
          <option value="off">Off</option>
        </select>
        <p id={`${autoId}-hint`} className="dialog-field-hint">
          When on, older messages are summarized before a request would pass the threshold.
        </p>
      </div>
      <div className="dialog-field">
        <label htmlFor={strategyId} className="dialog-label">
          Compression strategy
        </label>
        <select
          id={strategyId}
          className="input select"
          disabled={saving}
          value={session.strategy ?? 'inherit'}
          onChange={(event) => {
            const value = event.target.value
            void save({ strategy: value === 'inherit' ? null : (value as Strategy) })
          }}
        >
          <option value="inherit">Inherit from Settings ({strategyLabel(globalStrategy)})</option>
          {STRATEGIES.map((s) => (
            <option key={s} value={s}>
              {strategyLabel(s)}
            </option>
          ))}
        </select>
      </div>
      <div className="dialog-field">
        <label htmlFor={recallId} className="dialog-label">
          Recall summarized messages
        </label>
        <select
          id={recallId}
          className="input select"
          aria-describedby={`${recallId}-hint`}
          disabled={saving}
          value={toTristate(session.recall)}
          onChange={(event) => {
            const value = event.target.value as Tristate
            void save({ recall: value === 'inherit' ? null : value === 'on' })
          }}
        >
          <option value="inherit">Inherit from Settings ({globalRecall ? 'on' : 'off'})</option>
          <option value="on">On</option>
          <option value="off">Off</option>
        </select>
        <p id={`${recallId}-hint`} className="dialog-field-hint">
          When on, originals behind the summary that match your message are sent with it, verbatim.
        </p>
      </div>
      <ChatReviewField session={session} disabled={saving} save={(change) => void save(change)} />
      <ChatWindowField key={session.contextWindow ?? 'model'} session={session} />
      <ChatThresholdField key={session.thresholdPercent ?? 'inherit'} session={session} />
    </div>
  )
}
