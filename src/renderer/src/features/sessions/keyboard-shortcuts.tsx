import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useEffectEvent } from 'react'
import { toast } from 'sonner'
import { create } from 'zustand'
import { api } from '../../api/client'
import { CloseIcon } from '../../components/icons'
import { messageText } from '../../lib/message-text'
import { useReturnFocus } from '../../lib/use-return-focus'
import { useChatStore } from '../../stores/chat/chat-store'
import { useCompressionStore } from '../../stores/compression-store'
import { isStreaming } from '../../stores/chat/thread'
import { useUiStore } from '../../stores/ui-store'
import { downloadExport } from './list/download-export'
import { keyLabel, matchShortcut, SHORTCUT_HELP, type ShortcutAction } from './shortcuts'
import { useNewChat } from './list/use-new-chat'
import './keyboard-shortcuts.css'

const useHelp = create<{ open: boolean }>()(() => ({ open: false }))

/** Opens the "Keyboard shortcuts" dialog (from a menu). */
export function openShortcutsHelp(): void {
  useHelp.setState({ open: true })
}

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

/** Menu commands of the desktop app that land here rather than in the stores' event wiring. */
const MENU_COMMANDS = new Set<string>([
  'search-chats',
  'stop-reply',
  'shortcuts',
  'export-markdown',
  'export-json',
  'toggle-sidebar'
])

function focusSearch(): void {
  const find = () => document.querySelector<HTMLInputElement>('input[aria-label="Search chats"]')
  const input = find()
  if (input && input.getClientRects().length > 0) {
    input.focus()
    input.select()
    return
  }
  // Narrow windows: the sidebar is a drawer, which focuses its first button as it opens.
  useUiStore.getState().setSidebarOpen(true)
  setTimeout(() => find()?.focus(), 50)
}

/**
 * The composer of the open chat gets the last message the user sent, caret at the end; sending it
 * then makes a new version of that message, as "Edit and resend" does.
 */
function recallLast(sessionId: string): boolean {
  const messages = useChatStore.getState().threads[sessionId]?.messages ?? []
  const last = messages.findLast((m) => m.role === 'user')
  const text = last ? messageText(last.parts) : ''
  if (!last || !text) return false
  useChatStore.getState().setDraft(sessionId, text)
  // A summarized message is read-only: then sending it makes a new turn, as before.
  const cutoff = useCompressionStore.getState().active[sessionId]?.cutoffSeq ?? 0
  if (last.seq > cutoff) useChatStore.getState().setEditing(sessionId, last.id)
  requestAnimationFrame(() => {
    const box = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')
    box?.focus()
    box?.setSelectionRange(text.length, text.length)
  })
  return true
}

function anOverlayIsOpen(): boolean {
  return document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]') !== null
}

/**
 * App-wide keyboard shortcuts and their help dialog (`?` or Ctrl+/). The Electron application menu
 * sends the same actions as 'ui.command' events. Mounted once, with the sidebar.
 */
export function KeyboardShortcuts() {
  const open = useHelp((s) => s.open)
  const focusHandlers = useReturnFocus()
  const { newChat } = useNewChat()

  /** Runs an action; false when it does not apply here, so the key keeps its usual meaning. */
  const run = useEffectEvent((action: ShortcutAction | 'export-markdown' | 'export-json'): boolean => {
    const ui = useUiStore.getState()
    const sessionId = ui.view === 'chat' ? ui.selectedSessionId : null
    switch (action) {
      case 'new-chat':
        void newChat()
        return true
      case 'search-chats':
        focusSearch()
        return true
      case 'shortcuts':
        useHelp.setState({ open: true })
        return true
      case 'toggle-sidebar':
        ui.toggleSidebar()
        return true
      case 'stop-reply': {
        if (
          !sessionId ||
          !isStreaming(useChatStore.getState().threads[sessionId]) ||
          anOverlayIsOpen() ||
          ui.sidebarOpen
        )
          return false
        void useChatStore
          .getState()
          .stop(sessionId)
          .then((failure) => failure && toast.error('Could not stop the reply', { description: failure }))
        return true
      }
      case 'recall-last':
        return sessionId !== null && recallLast(sessionId)
      case 'export-markdown':
      case 'export-json':
        if (!ui.selectedSessionId) return false
        downloadExport(ui.selectedSessionId, action === 'export-json' ? 'json' : 'md').then(
          (filename) => toast.success(`Exported ${filename}`),
          (error: unknown) =>
            toast.error('Could not export the chat', {
              description: error instanceof Error ? error.message : String(error)
            })
        )
        return true
    }
  })

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.isComposing || event.repeat) return
      const target = event.target instanceof HTMLElement ? event.target : document.body
      const typing = target.matches('input, textarea, select, [contenteditable=""], [contenteditable="true"]')
      const composer = target.matches('textarea[aria-label="Message"]') ? (target as HTMLTextAreaElement) : null
      const action = matchShortcut(event, { typing, emptyComposer: composer !== null && composer.value === '' })
      if (action && run(action)) event.preventDefault()
    }
    document.addEventListener('keydown', onKeyDown)
    const off = api.on('ui.command', ({ command }) => {
      if (MENU_COMMANDS.has(command)) run(command as ShortcutAction | 'export-markdown' | 'export-json')
    })
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      off()
    }
  }, [])

  return (
    <Dialog.Root open={open} onOpenChange={(next) => useHelp.setState({ open: next })}>
      {open && (
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog dialog-wide shortcuts-dialog" {...focusHandlers}>
            <div className="shortcuts-head">
              <Dialog.Title className="dialog-title">Keyboard shortcuts</Dialog.Title>
              <Dialog.Close asChild>
                <button type="button" className="icon-button" aria-label="Close">
                  <CloseIcon />
                </button>
              </Dialog.Close>
            </div>
            <Dialog.Description className="dialog-description">
              {MAC ? '⌘ is the Command key.' : 'On a Mac, use ⌘ where Ctrl is shown.'}
            </Dialog.Description>
            <table className="shortcuts-table">
              <thead className="sr-only">
                <tr>
                  <th scope="col">Keys</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {SHORTCUT_HELP.map((s) => (
                  <tr key={s.description}>
                    <td className="shortcuts-keys">
                      {s.keys.map((k, i) => (
                        <span key={k}>
                          {i > 0 && <span aria-hidden="true">+</span>}
                          <kbd>{keyLabel(k, MAC)}</kbd>
                        </span>
                      ))}
                    </td>
                    <td>{s.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Dialog.Content>
        </Dialog.Portal>
      )}
    </Dialog.Root>
  )
}
