import './context-divider.css'

/** Where the active context begins: the messages above it are represented by the summary. */
export function ContextDivider() {
  return (
    <div className="context-divider" role="separator" aria-label="Active context starts here">
      <span className="context-divider-label" aria-hidden="true">
        Active context starts here
      </span>
    </div>
  )
}
