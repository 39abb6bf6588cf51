import { useEffect } from 'react'
import { ArrowLeftIcon } from '../../components/icons'
import { PaneHeader } from '../../components/pane-header'
import { useSettingsStore } from '../../stores/settings-store'
import { useUiStore } from '../../stores/ui-store'
import { SettingsForm } from './settings-form'

/** Settings in the main pane, with a way back to the chat. */
export function SettingsPage() {
  const settings = useSettingsStore((s) => s.settings)
  const status = useSettingsStore((s) => s.status)
  const error = useSettingsStore((s) => s.error)
  const load = useSettingsStore((s) => s.load)
  const closeSettings = useUiStore((s) => s.closeSettings)

  useEffect(() => {
    void useSettingsStore.getState().load()
  }, [])

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
      <div className="settings-scroll">
        <div className="settings-column">
          {settings ? (
            <SettingsForm settings={settings} />
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
      </div>
    </section>
  )
}
