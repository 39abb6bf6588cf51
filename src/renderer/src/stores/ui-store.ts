import { create } from 'zustand'
import type { ConnectionState } from '../api/transport'
import { readLocal, writeLocal } from '../lib/storage'

const LAST_SESSION_KEY = 'distill.lastSession'

export type View = 'chat' | 'settings'
/** A part of the settings page that can be opened directly. */
export type SettingsSection = 'providers' | 'models'
/** A dialog of the open chat, opened from its header, a shortcut, a toast or another dialog. */
export type ChatDialog = 'summarize' | 'inspector' | 'history' | 'chat-settings'

interface UiState {
  view: View
  /** The open chat; null shows the welcome screen. */
  selectedSessionId: string | null
  /** Narrow windows only: whether the sidebar drawer is shown. */
  sidebarOpen: boolean
  connection: ConnectionState
  /** The server refused our token (browser mode); the app can only explain how to get back in. */
  unauthorized: boolean
  openSession(id: string | null): void
  /** Forget the open chat without leaving the current view (it was deleted). */
  deselect(): void
  /** The settings section to bring into view once the page shows (then cleared). */
  settingsSection: SettingsSection | null
  openSettings(section?: SettingsSection): void
  settingsSectionShown(): void
  closeSettings(): void
  setSidebarOpen(open: boolean): void
  setConnection(state: ConnectionState): void
  setUnauthorized(): void
  /** The open chat's dialog, if any (one at a time). */
  chatDialog: ChatDialog | null
  setChatDialog(dialog: ChatDialog | null): void
}

export const useUiStore = create<UiState>()((set) => ({
  view: 'chat',
  selectedSessionId: null,
  sidebarOpen: false,
  connection: 'connecting',
  unauthorized: false,
  settingsSection: null,
  chatDialog: null,
  openSession(id) {
    writeLocal(LAST_SESSION_KEY, id)
    set({ selectedSessionId: id, view: 'chat', sidebarOpen: false, chatDialog: null })
  },
  deselect() {
    writeLocal(LAST_SESSION_KEY, null)
    set({ selectedSessionId: null })
  },
  openSettings(section) {
    set({ view: 'settings', sidebarOpen: false, settingsSection: section ?? null, chatDialog: null })
  },
  settingsSectionShown() {
    set({ settingsSection: null })
  },
  closeSettings() {
    set({ view: 'chat' })
  },
  setSidebarOpen(open) {
    set({ sidebarOpen: open })
  },
  setConnection(connection) {
    set({ connection })
  },
  setUnauthorized() {
    set({ unauthorized: true })
  },
  setChatDialog(chatDialog) {
    set({ chatDialog })
  }
}))

/** The chat open when the app was last closed, if any. */
export function lastSessionId(): string | null {
  return readLocal(LAST_SESSION_KEY)
}
