import { useEffect, useRef, useState } from 'react'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { ArrowLeftIcon } from '../../components/icons'
import { PaneHeader } from '../../components/pane-header'
import { useSettingsStore } from '../../stores/settings-store'
import { useUiStore } from '../../stores/ui-store'
import { ModelsSection } from '../providers/models-section'
import { ProvidersSection } from '../providers/providers-section'
import { SaveBar, SETTINGS_FORM_ID } from './save-bar'
import { SettingsDraft, useDraftState } from '../../components/settings-draft'
import { SettingsForm } from './settings-form'
import './settings-page.css'

/**
 * Settings in the main pane, with a way back to the chat. The whole page is one draft with one
 * Save (the bar at the bottom, Enter in a field, or Ctrl/⌘+S).
 */
export function SettingsPage() {
  return (
    <SettingsDraft>
      <SettingsPageContent />
    </SettingsDraft>
  )
}

function SettingsPageContent() {
  const draft = useDraftState()
  const settings = useSettingsStore((s) => s.settings)
  const status = useSettingsStore((s) => s.status)
  const error = useSettingsStore((s) => s.error)
  const load = useSettingsStore((s) => s.load)
  const closeSettings = useUiStore((s) => s.closeSettings)
  const section = useUiStore((s) => s.settingsSection)
  const providersRef = useRef<HTMLHeadingElement>(null)
  /** Where the user was going when asked about unsaved changes. */
  const [leaving, setLeaving] = useState<{ leave: () => void } | null>(null)

  useEffect(() => {
    void useSettingsStore.getState().load()
  }, [])

  // Leaving (Back, a chat in the sidebar, a shortcut) would drop the edits: only when the user says so.
  const unsaved = draft.dirtyLabels.length > 0
  useEffect(() => {
    if (!unsaved) return
    const ui = useUiStore.getState()
    ui.setSettingsLeaveGuard((leave) => setLeaving({ leave }))
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault()
    window.addEventListener('beforeunload', onUnload)
    return () => {
      ui.setSettingsLeaveGuard(null)
      window.removeEventListener('beforeunload', onUnload)
    }
  }, [unsaved])

  // Opened for a purpose ("Open Settings" on a reply that needs a key): go straight there.
  useEffect(() => {
    if ((section === 'models' || section === 'compression') && settings) {
      const heading = document.getElementById(`section-${section}`)
      heading?.scrollIntoView({ block: 'start' })
      heading?.focus({ preventScroll: true })
      useUiStore.getState().settingsSectionShown()
      return
    }
    if (section !== 'providers') return
    const heading = providersRef.current
    heading?.scrollIntoView({ block: 'start' })
    heading?.focus({ preventScroll: true })
    useUiStore.getState().settingsSectionShown()
  }, [section, settings])

  return (
    <section className="pane settings-pane" aria-labelledby="settings-title">
      <PaneHeader
        title={<span id="settings-title">Settings</span>}
        leading={
          <button type="button" className="button button-ghost back-button" onClick={closeSettings}>
            <ArrowLeftIcon />
            Back to chat
          </button>
        }
      />
      <form
        id={SETTINGS_FORM_ID}
        className="settings-scroll"
        aria-label="Settings"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void draft.save()
        }}
      >
        <div className="settings-column settings-stack">
          <ProvidersSection headingRef={providersRef} />
          {settings ? (
            <>
              <ModelsSection settings={settings} />
              <SettingsForm settings={settings} />
            </>
          ) : status === 'error' ? (
            <div className="chat-empty" role="alert">
              <h2>Could not load settings</h2>
              <p className="muted">{error}</p>
              <button type="button" className="button" onClick={() => void load()}>
                Try again
              </button>
            </div>
          ) : (
            <p className="muted" aria-busy="true">
              Loading settings…
            </p>
          )}
        </div>
      </form>
      <SaveBar />
      <ConfirmDialog
        open={leaving !== null}
        onOpenChange={(open) => !open && setLeaving(null)}
        title="Leave Settings without saving?"
        description={`Your changes to ${draft.dirtyLabels.join(', ')} have not been saved and will be lost.`}
        confirmLabel="Leave without saving"
        destructive
        onConfirm={() => {
          const go = leaving?.leave
          setLeaving(null)
          go?.()
        }}
      />
    </section>
  )
}
