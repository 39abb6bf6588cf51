import { useEffect, useRef } from 'react'
import { CloseIcon, GearIcon, LogoMark, PlusIcon } from '../../components/icons'
import { useUiStore } from '../../stores/ui-store'
import { ImportChatButton } from './list/import-chat-button'
import { KeyboardShortcuts } from './keyboard-shortcuts'
import { MoveToProjectDialog } from './projects/move-to-project-dialog'
import { SearchBox } from './search/search-box'
import { SessionList } from './list/session-list'
import { useNewChat } from './list/use-new-chat'
import './sidebar.css'

/** The left column: app name, New chat, search, the chats, and Settings. A drawer in narrow windows. */
export function Sidebar() {
  const sidebarOpen = useUiStore((s) => s.sidebarOpen)
  const setSidebarOpen = useUiStore((s) => s.setSidebarOpen)
  const view = useUiStore((s) => s.view)
  const openSettings = useUiStore((s) => s.openSettings)
  const { newChat, creating } = useNewChat()
  const navRef = useRef<HTMLElement>(null)

  // The drawer (narrow windows): focus moves in when it opens, Escape closes it from anywhere, and
  // focus goes back to the toggle when it closes.
  useEffect(() => {
    if (!sidebarOpen) return
    const nav = navRef.current
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    nav?.querySelector<HTMLElement>('.new-chat')?.focus()
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape' && !event.defaultPrevented) useUiStore.getState().setSidebarOpen(false)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      if (opener?.isConnected && nav?.contains(document.activeElement)) opener.focus()
    }
  }, [sidebarOpen])

  return (
    <>
      <nav ref={navRef} id="sidebar" className="sidebar" aria-label="Chats" data-open={sidebarOpen || undefined}>
        <div className="sidebar-header">
          <span className="app-name">
            <LogoMark className="app-logo" />
            Distill
          </span>
          <button
            type="button"
            className="icon-button sidebar-close"
            aria-label="Hide chats"
            title="Hide chats (Ctrl+B)"
            onClick={() => useUiStore.getState().toggleSidebar()}
          >
            <CloseIcon />
          </button>
        </div>
        <div className="sidebar-tools">
          <button
            type="button"
            className="button new-chat"
            title="New chat (Ctrl+Shift+O)"
            aria-keyshortcuts="Control+Shift+O"
            onClick={() => void newChat()}
            disabled={creating}
          >
            <PlusIcon />
            New chat
          </button>
          <SearchBox />
        </div>
        <div className="sidebar-scroll">
          <SessionList />
        </div>
        <div className="sidebar-footer">
          <ImportChatButton />
          <button
            type="button"
            className="sidebar-link"
            aria-current={view === 'settings' ? 'page' : undefined}
            onClick={() => openSettings()}
          >
            <GearIcon />
            Settings
          </button>
        </div>
      </nav>
      {sidebarOpen && <div className="sidebar-scrim" aria-hidden="true" onClick={() => setSidebarOpen(false)} />}
      <KeyboardShortcuts />
      <MoveToProjectDialog />
    </>
  )
}
