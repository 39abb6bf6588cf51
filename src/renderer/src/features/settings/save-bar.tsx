import { useEffect } from 'react'
import { useDraftState } from '../../components/settings-draft'

/** The page's form: Save is its submit button, so Enter in any field saves. */
export const SETTINGS_FORM_ID = 'settings-form'

/**
 * The one way Settings are saved: a bar at the bottom of the page while anything differs from what
 * is saved, naming what changed, with Discard and Save (Ctrl/⌘+S). After a failed save it stays,
 * says what was not saved, and the edits stay in their fields.
 */
export function SaveBar() {
  const { dirtyLabels, saving, problem, save, discard } = useDraftState()
  const dirty = dirtyLabels.length > 0

  useEffect(() => {
    if (!dirty) return
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault()
        void save()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [dirty, save])

  return (
    <div
      className="save-bar"
      role="region"
      aria-label="Unsaved changes"
      hidden={!dirty && !problem}
      data-problem={problem ? true : undefined}
    >
      <div className="save-bar-text">
        <p className="save-bar-title" role="status">
          {dirty ? `Unsaved changes: ${dirtyLabels.join(', ')}` : ''}
        </p>
        {problem && (
          <p className="save-bar-problem" role="alert">
            {problem}
          </p>
        )}
      </div>
      <button type="button" className="button" disabled={saving || !dirty} onClick={discard}>
        Discard
      </button>
      <button type="submit" form={SETTINGS_FORM_ID} className="button button-primary" disabled={saving || !dirty}>
        {saving ? 'Saving…' : 'Save changes'}
      </button>
    </div>
  )
}
