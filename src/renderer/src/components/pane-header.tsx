import type { ReactNode } from 'react'
import { useUiStore } from '../stores/ui-store'
import { MenuIcon } from './icons'

interface PaneHeaderProps {
  /** The pane's heading; omitted on screens that carry their own. */
  title?: ReactNode
  /** Between the sidebar toggle and the title (a back button). */
  leading?: ReactNode
  /** Actions on the right. */
  children?: ReactNode
}

/** The bar on top of the main pane, with the sidebar toggle (narrow windows, or the sidebar put away). */
export function PaneHeader({ title, leading, children }: PaneHeaderProps) {
  const sidebarOpen = useUiStore((s) => s.sidebarOpen)
  const collapsed = useUiStore((s) => s.sidebarCollapsed)
  const toggleSidebar = useUiStore((s) => s.toggleSidebar)
  return (
    <header className={title === undefined && !leading && !children ? 'pane-header pane-header-bare' : 'pane-header'}>
      <button
        type="button"
        className="icon-button sidebar-toggle"
        aria-label="Show chats"
        title="Show chats (Ctrl+B)"
        aria-expanded={sidebarOpen || !collapsed}
        aria-controls="sidebar"
        onClick={toggleSidebar}
      >
        <MenuIcon />
      </button>
      {leading}
      {title !== undefined && <h1 className="pane-title">{title}</h1>}
      {children && <div className="pane-actions">{children}</div>}
    </header>
  )
}
