import { attachmentsLeftSentence } from '../../../../../shared/domain/attachments'
import { useManifest } from '../../../components/attachment-manifest'
import './context-divider.css'

/**
 * Where the active context begins: the messages above it are represented by the summary, and
 * their attachments are no longer sent (the divider says how many).
 */
export function ContextDivider({ sessionId }: { sessionId: string }) {
  const left = useManifest(sessionId).length
  const label =
    left > 0 ? `Active context starts here · ${attachmentsLeftSentence(left)}` : 'Active context starts here'
  return (
    <div className="context-divider" role="separator" aria-label={label}>
      <span className="context-divider-label" aria-hidden="true">
        {label}
      </span>
    </div>
  )
}
