import { useId } from 'react'
import type { Session } from '../../../../../shared/domain/session'
import { useGlobalSettings } from '../../../stores/chat-settings'

/** "Ask me before a summary replaces messages" for this chat: on, off, or what Settings says. */
export function ChatReviewField({
  session,
  disabled,
  save
}: {
  session: Session
  disabled: boolean
  save(change: { reviewSummaries: boolean | null }): void
}) {
  const global = useGlobalSettings().reviewSummaries
  const id = useId()
  const own = session.reviewSummaries ?? null
  return (
    <div className="dialog-field">
      <label htmlFor={id} className="dialog-label">
        Ask me before a summary replaces messages
      </label>
      <select
        id={id}
        className="input select"
        aria-describedby={`${id}-hint`}
        disabled={disabled}
        value={own === null ? 'inherit' : own ? 'on' : 'off'}
        onChange={(event) => {
          const value = event.target.value
          save({ reviewSummaries: value === 'inherit' ? null : value === 'on' })
        }}
      >
        <option value="inherit">Inherit from Settings ({global ? 'on' : 'off'})</option>
        <option value="on">On</option>
        <option value="off">Off</option>
      </select>
      <p id={`${id}-hint`} className="dialog-field-hint">
        When on, a summary waits in the Summary panel as a draft you can edit, regenerate or accept. A send that cannot
        wait still goes out with a quick offline summary.
      </p>
    </div>
  )
}
