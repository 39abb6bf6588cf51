import type { Settings } from '../../../shared/domain/settings'
import { api } from '../api/client'
import type { CompressionReport } from '../../../shared/contract'
import { useChatStore } from './chat/chat-store'
import { useCompressionStore } from './compression-store'
import { useHistoryStore } from './history-store'
import { useProjectsStore } from './projects-store'
import { useProvidersStore } from './providers-store'
import { useSessionsStore } from './sessions-store'
import { useSettingsStore } from './settings-store'
import { useUiStore } from './ui-store'
import { useUsageStore } from './usage-store'

/** Only the open chat shows its context usage; the others refetch when they are opened. */
function refreshUsage(sessionId: string): void {
  if (useUiStore.getState().selectedSessionId === sessionId) useUsageStore.getState().refresh(sessionId)
}

function refreshOpenUsage(): void {
  const open = useUiStore.getState().selectedSessionId
  if (open) useUsageStore.getState().refresh(open)
}

/** The settings that decide which models exist, as of the last model list asked for. */
let modelsKey: string | null = null

/** Reloads the models when custom models or base URLs changed (saved here or in another window). */
function reloadModelsIfNeeded(settings: Settings): void {
  const key = JSON.stringify([settings.customModels, settings.providerBaseURLs])
  if (key === modelsKey) return
  modelsKey = key
  void useProvidersStore.getState().loadModels()
}

/**
 * Connects the stores to the main process's events, once, for the app's lifetime. After the event
 * stream reconnects every store refetches, since events may have been missed meanwhile.
 */
/**
 * What the events tell the person, when a feature wants to say it (a toast, a system notification):
 * the stores raise notices through this, and never import a feature's components.
 */
export interface Notices {
  autoCompressed(sessionId: string, report: CompressionReport): void
  autoCompressionFailed(sessionId: string, message: string): void
  /** The chat learned something that changed its settings (a server's smaller window). */
  chatNotice(sessionId: string, text: string): void
}

export function wireEvents(notices: Notices): () => void {
  const offs = [
    api.on('sessions.changed', ({ sessionId, reason }) => {
      useSessionsStore.getState().changed(sessionId, reason)
      useProjectsStore.getState().sessionsChanged()
      if (reason === 'deleted') {
        useChatStore.getState().forget(sessionId)
        useUsageStore.getState().forget(sessionId)
        useCompressionStore.getState().forget(sessionId)
        if (useHistoryStore.getState().sessionId === sessionId) useHistoryStore.getState().close()
        if (useUiStore.getState().selectedSessionId === sessionId) useUiStore.getState().deselect()
      } else {
        // The model or system prompt may have changed.
        refreshUsage(sessionId)
      }
    }),
    // A project's Recall across chats changes what its chats' next requests hold.
    api.on('projects.changed', () => {
      void useProjectsStore.getState().load()
      const open = useUiStore.getState().selectedSessionId
      if (open) refreshUsage(open)
    }),
    api.on('chat.message', ({ message }) => {
      useChatStore.getState().receive(message)
      if (message.status !== 'streaming') {
        refreshUsage(message.sessionId)
        useHistoryStore.getState().changed(message.sessionId)
      }
    }),
    api.on('chat.delta', ({ sessionId, messageId, delta }) =>
      useChatStore.getState().appendDelta(sessionId, messageId, delta)
    ),
    api.on('chat.notice', ({ sessionId, text }) => notices.chatNotice(sessionId, text)),
    api.on('usage.changed', ({ sessionId }) => refreshUsage(sessionId)),
    api.on('compression.started', (payload) => useCompressionStore.getState().started(payload)),
    api.on('compression.progress', (payload) => useCompressionStore.getState().progress(payload)),
    api.on('compression.done', (payload) => {
      useCompressionStore.getState().done(payload)
      useHistoryStore.getState().changed(payload.sessionId)
      refreshUsage(payload.sessionId)
      // A manual run reports through its own request (with Retry on failure): only auto ones here.
      // A draft waits in the Summary panel: nothing was replaced, so there is nothing to announce.
      if (payload.report.type === 'auto' && !payload.report.draft)
        notices.autoCompressed(payload.sessionId, payload.report)
    }),
    api.on('compression.failed', (payload) => {
      useCompressionStore.getState().failed(payload)
      // A manual run reports through its own request; an auto one (a model summary in the background) here.
      if (payload.type === 'auto' && payload.code !== 'cancelled' && payload.code !== 'conflict')
        notices.autoCompressionFailed(payload.sessionId, payload.message)
    }),
    api.on('compression.changed', ({ sessionId }) => {
      void useCompressionStore.getState().load(sessionId)
      useHistoryStore.getState().changed(sessionId)
      refreshUsage(sessionId)
    }),
    api.on('settings.changed', ({ settings }) => {
      useSettingsStore.getState().apply(settings)
      // Base URLs live in settings: the providers' readiness follows them.
      void useProvidersStore.getState().load()
      reloadModelsIfNeeded(settings)
      // Budgets depend on the safety margin, the threshold and custom windows.
      refreshOpenUsage()
    }),
    // The Electron application menu's commands.
    api.on('ui.command', ({ command }) => {
      const ui = useUiStore.getState()
      if (command === 'settings') return ui.openSettings()
      if (command === 'new-chat') {
        void useSessionsStore
          .getState()
          .create()
          .then((session) => useUiStore.getState().openSession(session.id))
        return
      }
      if (command !== 'summarize' && command !== 'full-history' && command !== 'inspect-context') return // the keyboard shortcuts' own
      if (!ui.selectedSessionId) return
      if (ui.view !== 'chat') ui.openSession(ui.selectedSessionId)
      useUiStore
        .getState()
        .setChatDialog(command === 'summarize' ? 'summarize' : command === 'full-history' ? 'history' : 'inspector')
    }),
    api.onConnection((state) => useUiStore.getState().setConnection(state)),
    api.onReconnect(() => {
      void useSessionsStore.getState().load()
      void useSettingsStore.getState().load()
      void useProvidersStore.getState().load()
      void useProvidersStore.getState().loadModels()
      useChatStore.getState().reloadAll()
      useCompressionStore.getState().reloadAll()
      const historyOf = useHistoryStore.getState().sessionId
      if (historyOf) useHistoryStore.getState().changed(historyOf)
      const open = useUiStore.getState().selectedSessionId
      if (open) void useSessionsStore.getState().fetchOne(open)
      refreshOpenUsage()
    }),
    api.onUnauthorized(() => useUiStore.getState().setUnauthorized())
  ]
  return () => {
    for (const off of offs) off()
  }
}
