import { z } from 'zod'

/** Commands from outside the page (the Electron application menu) that the renderer carries out. */
export const uiCommandSchema = z.enum([
  'new-chat',
  'summarize',
  'full-history',
  'inspect-context',
  'settings',
  // Carried out by the renderer's keyboard shortcuts (features/sessions/keyboard-shortcuts.tsx).
  'search-chats',
  'stop-reply',
  'shortcuts',
  'toggle-sidebar',
  'export-markdown',
  'export-json'
])
export type UiCommand = z.infer<typeof uiCommandSchema>

export const uiEvents = {
  'ui.command': z.object({ command: uiCommandSchema })
}
