import { create } from 'zustand'
import type { ConnectionState } from '../api/transport'
import { readLocal, writeLocal } from '../lib/storage'

const LAST_SESSION_KEY = 'distill.lastSession'
const SIDEBAR_COLLAPSED_KEY = 'distill.sidebarCollapsed'
/** Below this width the sidebar is a drawer over the chat (keep in step with the stylesheets' 900px). */
export const NARROW_QUERY = '(max-width: 900px)'

function narrow(): boolean {
  return (
    typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches
  )
}

export type View = 'chat' | 'settings'
/** A part of the settings page that can be opened directly. */
export type SettingsSection = 'providers' | 'models' | 'compression'
/** A dialog of the open chat, opened from its header, a shortcut, a toast or another dialog. */
export type ChatDialog = 'summarize' | 'inspector' | 'history' | 'chat-settings'

interface UiState {
  view: View
  /** The open chat; null shows the welcome screen. */
  selectedSessionId: string | null
  /** Narrow windows only: whether the sidebar drawer is shown. */
  sidebarOpen: boolean
  /** Wide windows: the sidebar is put away (remembered across launches). */
  sidebarCollapsed: boolean
  /** The sidebar button and Mod+B: the drawer in narrow windows, collapsing in wide ones. */
  toggleSidebar(): void
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
  /**
   * Set while Settings has unsaved changes: asked instead of leaving, it calls `leave` once the user
   * agrees to drop them.
   */
  settingsLeaveGuard: ((leave: () => void) => void) | null
  setSettingsLeaveGuard(guard: ((leave: () => void) => void) | null): void
  setSidebarOpen(open: boolean): void
  setConnection(state: ConnectionState): void
  setUnauthorized(): void
  /** The open chat's dialog, if any (one at a time). */
  chatDialog: ChatDialog | null
  setChatDialog(dialog: ChatDialog | null): void
}

export const useUiStore = create<UiState>()((set, get) => {
  /** Runs `leave` now, or once the user agrees to drop unsaved Settings changes. */
  const leaveSettings = (leave: () => void) => {
    const guard = get().view === 'settings' ? get().settingsLeaveGuard : null
    if (guard) guard(leave)
    else leave()
  }
  return {
    view: 'chat',
    selectedSessionId: null,
    sidebarOpen: false,
    sidebarCollapsed: readLocal(SIDEBAR_COLLAPSED_KEY) === '1',
    toggleSidebar() {
      if (narrow()) {
        set((s) => ({ sidebarOpen: !s.sidebarOpen }))
        return
      }
      set((s) => {
        writeLocal(SIDEBAR_COLLAPSED_KEY, s.sidebarCollapsed ? null : '1')
        return { sidebarCollapsed: !s.sidebarCollapsed }
      })
    },
    connection: 'connecting',
    unauthorized: false,
    settingsSection: null,
    chatDialog: null,
    openSession(id) {
      leaveSettings(() => {
        writeLocal(LAST_SESSION_KEY, id)
        set({ selectedSessionId: id, view: 'chat', sidebarOpen: false, chatDialog: null })
      })
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
    settingsLeaveGuard: null,
    setSettingsLeaveGuard(settingsLeaveGuard) {
      set({ settingsLeaveGuard })
    },
    closeSettings() {
      leaveSettings(() => set({ view: 'chat' }))
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
  }
})

/** The chat open when the app was last closed, if any. */
export function lastSessionId(): string | null {
  return readLocal(LAST_SESSION_KEY)
}
