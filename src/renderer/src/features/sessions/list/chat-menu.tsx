import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { toast } from 'sonner'
import { errorMessage } from '../../../api/api-error'
import { downloadExport } from './download-export'
import { openShortcutsHelp } from '../keyboard-shortcuts'
import { useProjectsStore } from '../../../stores/projects-store'
import './chat-menu.css'

export interface ChatMenuItem {
  label: string
  /** Shown at the end of the row, e.g. a shortcut. */
  hint?: string
  disabled?: boolean
  onSelect(): void
}

function MoreIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      <circle cx="5" cy="12" r="1.8" />
      <circle cx="12" cy="12" r="1.8" />
      <circle cx="19" cy="12" r="1.8" />
    </svg>
  )
}

/** The entries of a chat's menu: export, its project, and the keyboard shortcuts. */
export function chatMenuItems(sessionId: string, hasMessages: boolean): ChatMenuItem[] {
  const disabled = !hasMessages
  const run = (format: 'md' | 'json') => () => {
    downloadExport(sessionId, format).then(
      (filename) => toast.success(`Exported ${filename}`),
      (error: unknown) => toast.error('Could not export the chat', { description: errorMessage(error) })
    )
  }
  return [
    { label: 'Export as Markdown', disabled, onSelect: run('md') },
    { label: 'Export as JSON', hint: 'for distill import', disabled, onSelect: run('json') },
    { label: 'Move to project…', onSelect: () => useProjectsStore.getState().openMove(sessionId) },
    { label: 'Keyboard shortcuts', hint: '?', onSelect: openShortcutsHelp }
  ]
}

/**
 * "More actions" of the open chat: a menu button (WAI-ARIA menu pattern). Arrow keys, Home and End
 * move, Enter chooses, Escape or a click elsewhere closes and gives focus back to the button.
 */
export function ChatMenu({ items, label = 'More actions' }: { items: ChatMenuItem[]; label?: string }) {
  const [open, setOpen] = useState(false)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const menuId = useId()

  const itemEls = () => [
    ...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not([disabled])') ?? [])
  ]

  useEffect(() => {
    if (!open) return
    itemEls()[0]?.focus()
    function onPointerDown(event: PointerEvent) {
      const target = event.target as Node
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  function close(refocus: boolean) {
    setOpen(false)
    if (refocus) buttonRef.current?.focus()
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const els = itemEls()
    const index = els.indexOf(document.activeElement as HTMLButtonElement)
    const move = (to: number) => {
      event.preventDefault()
      els[(to + els.length) % els.length]?.focus()
    }
    if (event.key === 'ArrowDown') move(index + 1)
    else if (event.key === 'ArrowUp') move(index - 1)
    else if (event.key === 'Home') move(0)
    else if (event.key === 'End') move(els.length - 1)
    else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      close(true)
    } else if (event.key === 'Tab') close(false)
  }

  return (
    <span className="chat-menu">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button header-button"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault()
            setOpen(true)
          }
        }}
      >
        <MoreIcon />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          className="chat-menu-popup"
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              className="chat-menu-item"
              disabled={item.disabled}
              tabIndex={-1}
              onClick={() => {
                close(true)
                item.onSelect()
              }}
            >
              <span>{item.label}</span>
              {item.hint && <span className="chat-menu-hint">{item.hint}</span>}
            </button>
          ))}
        </div>
      )}
    </span>
  )
}
