import { useSessionDetails } from '../../stores/sessions-store'
import { useUiStore } from '../../stores/ui-store'
import { useUsageStore } from '../../stores/usage-store'
import { windowAssumed } from '../usage/window-assumed'
import './window-unknown.css'

/**
 * Beside the model picker when nobody told Distill the model's window (a local server that does not
 * say): the budget assumes a small one until the user sets it, for the model or for this chat.
 */
export function WindowUnknown({ sessionId }: { sessionId: string }) {
  const usage = useUsageStore((s) => s.usage[sessionId])
  const session = useSessionDetails(sessionId)
  const openSettings = useUiStore((s) => s.openSettings)
  if (!windowAssumed(usage, session)) return null
  return (
    <button
      type="button"
      className="window-unknown"
      title="Distill assumes a 4,096-token window for this model. Set its real window under Settings → Models."
      onClick={() => openSettings('models')}
    >
      {/* On a narrow header the picker already says "window unknown": only "set it" shows, the name stays whole. */}
      <span className="window-unknown-what">window unknown — </span>set it
    </button>
  )
}
