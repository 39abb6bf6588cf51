import { z } from 'zod'

/** Commands from outside the page (the Electron application menu) that the renderer carries out. */
export const uiCommandSchema = z.enum(['new-chat', 'summarize', 'full-history', 'inspect-context', 'settings'])
export type UiCommand = z.infer<typeof uiCommandSchema>

export const uiEvents = {
  'ui.command': z.object({ command: uiCommandSchema })
}
