/**
 * What a keyboard shortcut does; the Electron menu sends the same names as 'ui.command' events.
 * Summarize (Mod+Shift+S) belongs to the chat pane and is listed here for the help only.
 */
export type ShortcutAction = 'new-chat' | 'search-chats' | 'stop-reply' | 'recall-last' | 'shortcuts' | 'toggle-sidebar'

export interface ShortcutHelp {
  /** Keys as pressed on Windows and Linux; `Mod` is Ctrl there and ⌘ on macOS. */
  keys: string[]
  description: string
}

/** The help dialog's list, in the order a person meets them. */
export const SHORTCUT_HELP: ShortcutHelp[] = [
  { keys: ['Mod', 'Shift', 'O'], description: 'New chat' },
  { keys: ['Mod', 'K'], description: 'Search chats' },
  { keys: ['Mod', 'B'], description: 'Show or hide the chats sidebar' },
  { keys: ['Enter'], description: 'Send the message' },
  { keys: ['Shift', 'Enter'], description: 'New line in the message' },
  { keys: ['↑'], description: 'In an empty message box, edit your last message: sending makes a new version of it' },
  { keys: ['Esc'], description: 'Stop the reply while it streams' },
  { keys: ['Mod', 'Shift', 'S'], description: 'Summarize conversation history' },
  { keys: ['Alt', '↑'], description: 'Previous message (in the conversation)' },
  { keys: ['Alt', '↓'], description: 'Next message (in the conversation)' },
  { keys: ['?'], description: 'Show keyboard shortcuts' },
  { keys: ['Mod', '/'], description: 'Show keyboard shortcuts, also while typing' }
]

/** A key name as this platform shows it. */
export function keyLabel(key: string, mac: boolean): string {
  if (!mac) return key === 'Mod' ? 'Ctrl' : key
  return ({ Mod: '⌘', Shift: '⇧', Alt: '⌥', Enter: '↩' } as Record<string, string>)[key] ?? key
}

export interface KeyLike {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
}

/** Where the key was pressed, as far as shortcuts care. */
export interface KeyContext {
  /** In a text field, so printable keys are typing. */
  typing: boolean
  /** In the message box, and it is empty. */
  emptyComposer: boolean
}

/**
 * The shortcut a key press means, or null. Ctrl and ⌘ are both accepted, as the Summarize shortcut
 * does, so a keyboard shared between systems behaves the same.
 */
export function matchShortcut(e: KeyLike, where: KeyContext): ShortcutAction | null {
  const mod = e.ctrlKey || e.metaKey
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key
  if (mod && !e.altKey) {
    if (e.shiftKey && key === 'o') return 'new-chat'
    if (!e.shiftKey && key === 'k') return 'search-chats'
    if (!e.shiftKey && key === 'b') return 'toggle-sidebar'
    if (key === '/') return 'shortcuts'
    return null
  }
  if (e.altKey || mod) return null
  if (key === '?' && !where.typing) return 'shortcuts'
  if (key === 'Escape' && !e.shiftKey) return 'stop-reply'
  if (key === 'ArrowUp' && !e.shiftKey && where.emptyComposer) return 'recall-last'
  return null
}
