import { api } from '../api/client'
import { useChatStore } from './chat-store'
import { useSessionsStore } from './sessions-store'
import { useSettingsStore } from './settings-store'
import { useUiStore } from './ui-store'

/**
 * Connects the stores to the main process's events, once, for the app's lifetime. After the event
 * stream reconnects every store refetches, since events may have been missed meanwhile.
 */
export function wireEvents(): () => void {
  const offs = [
    api.on('sessions.changed', ({ sessionId, reason }) => {
      useSessionsStore.getState().changed(sessionId, reason)
      if (reason === 'deleted') {
        useChatStore.getState().forget(sessionId)
        if (useUiStore.getState().selectedSessionId === sessionId) useUiStore.getState().deselect()
      }
    }),
    api.on('chat.message', ({ message }) => useChatStore.getState().receive(message)),
    api.on('chat.delta', ({ sessionId, messageId, delta }) =>
      useChatStore.getState().appendDelta(sessionId, messageId, delta)
    ),
    api.on('settings.changed', ({ settings }) => useSettingsStore.getState().apply(settings)),
    api.onConnection((state) => useUiStore.getState().setConnection(state)),
    api.onReconnect(() => {
      void useSessionsStore.getState().load()
      void useSettingsStore.getState().load()
      useChatStore.getState().reloadAll()
      const open = useUiStore.getState().selectedSessionId
      if (open) void useSessionsStore.getState().fetchOne(open)
    }),
    api.onUnauthorized(() => useUiStore.getState().setUnauthorized())
  ]
  return () => {
    for (const off of offs) off()
  }
}
