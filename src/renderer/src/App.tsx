import { notifyChatNotice } from './features/chat/chat-notice'
import { useEffect } from 'react'
import { AccessNeeded } from './components/access-needed'
import { AppToaster } from './components/app-toaster'
import { ConnectionBanner } from './components/connection-banner'
import { ChatView } from './features/chat/chat-view'
import { warmUpMessageRendering } from './features/chat/messages/warm-up-message-rendering'
import { Sidebar } from './features/sessions/sidebar'
import { SettingsPage } from './features/settings/settings-page'
import { applyTheme } from './lib/theme'
import { useProvidersStore } from './stores/providers-store'
import { useSessionsStore } from './stores/sessions-store'
import { useSettingsStore } from './stores/settings-store'
import { lastSessionId, useUiStore } from './stores/ui-store'
import { wireEvents } from './stores/wire-events'
import { notifyAutoCompression, notifyAutoCompressionFailed } from './features/compression/compression-toasts'

/** A chat named in the address (`#chat/<id>`, a sidebar link opened in a new tab), else the last one open. */
function sessionToRestore(): string | null {
  const match = /^#chat\/(.+)$/.exec(window.location.hash)
  if (match) {
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
    try {
      return decodeURIComponent(match[1]!)
    } catch {
      return null
    }
  }
  return lastSessionId()
}

async function start(): Promise<void> {
  const remembered = sessionToRestore()
  // Can take a moment (a local server is asked what it serves): nobody waits for it.
  void useProvidersStore.getState().loadModels()
  await Promise.all([
    useSessionsStore.getState().load(),
    useSettingsStore.getState().load(),
    useProvidersStore.getState().load(),
    remembered
      ? useSessionsStore
          .getState()
          .fetchOne(remembered)
          .then((session) => {
            if (session && useUiStore.getState().selectedSessionId === null)
              useUiStore.getState().openSession(session.id)
          })
      : Promise.resolve()
  ])
}

export function App() {
  const view = useUiStore((s) => s.view)
  const unauthorized = useUiStore((s) => s.unauthorized)
  const theme = useSettingsStore((s) => s.settings?.theme)
  const sidebarCollapsed = useUiStore((s) => s.sidebarCollapsed)

  useEffect(() => {
    const unwire = wireEvents({
      autoCompressed: notifyAutoCompression,
      autoCompressionFailed: notifyAutoCompressionFailed,
      chatNotice: notifyChatNotice
    })
    // Once the sidebar is there, while the window waits for a click: the first chat opens as fast as the next.
    void start().then(warmUpMessageRendering)
    return unwire
  }, [])

  useEffect(() => {
    if (theme) applyTheme(theme)
  }, [theme])

  if (unauthorized) return <AccessNeeded reason="rejected" />

  return (
    <>
      <div className="app" data-sidebar-collapsed={sidebarCollapsed || undefined}>
        <Sidebar />
        <main className="main">
          <ConnectionBanner />
          {view === 'settings' ? <SettingsPage /> : <ChatView />}
        </main>
      </div>
      {/* Top right under the header when nothing is there; never over a control, a dialog's or the page's (see AppToaster). */}
      <AppToaster theme={theme ?? 'system'} />
    </>
  )
}
