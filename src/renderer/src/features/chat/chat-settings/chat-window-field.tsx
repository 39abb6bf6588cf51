import type { Session } from '../../../../../shared/domain/session'
import { useSessionsStore } from '../../../stores/sessions-store'
import { useUsageStore } from '../../../stores/usage-store'
import { ChatNumberField } from './chat-number-field'

/**
 * "Context window for this chat": a local server loaded with a smaller window than the model's, or a
 * chat kept small on purpose. Empty follows the model. Keyed by the stored value where it is used, so
 * a change made elsewhere shows.
 */
export function ChatWindowField({ session }: { session: Session }) {
  const update = useSessionsStore((s) => s.update)
  const modelWindow = useUsageStore((s) => s.usage[session.id]?.budget.window)
  return (
    <ChatNumberField
      label="Context window for this chat"
      hint="Tokens. Set it when your local server loaded the model with a smaller window; empty follows the model."
      placeholder={
        session.contextWindow === null && modelWindow ? `${modelWindow.toLocaleString()} (the model’s)` : 'The model’s'
      }
      saved={session.contextWindow}
      parse={(text) => {
        const digits = text.replace(/[\s,._]/g, '')
        if (digits === '') return { value: null }
        return /^\d+$/.test(digits) ? { value: Number(digits) } : { error: 'A whole number of tokens, e.g. 8192' }
      }}
      write={async (contextWindow) => {
        await update(session.id, { contextWindow })
        useUsageStore.getState().refresh(session.id, { now: true })
      }}
    />
  )
}
