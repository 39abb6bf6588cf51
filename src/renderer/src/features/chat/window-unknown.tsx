import { useUiStore } from '../../stores/ui-store'
import './window-unknown.css'
import { useUsageStore } from '../../stores/usage-store'

/**
 * Beside the model picker when nobody told Distill the model's window (a local server that does not
 * say): the budget assumes a small one until the user sets it.
 */
export function WindowUnknown({ sessionId }: { sessionId: string }) {
  const known = useUsageStore((s) => s.usage[sessionId]?.modelKnown)
  const openSettings = useUiStore((s) => s.openSettings)
  if (known !== false) return null
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
