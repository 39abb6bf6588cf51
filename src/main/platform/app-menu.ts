import type { MenuItemConstructorOptions } from 'electron'
import type { UiCommand } from '../../shared/contract'

/**
 * The application menu: the standard roles plus Distill's own commands, which the renderer carries
 * out (they arrive as 'ui.command' events). Pure, so its shape is tested without Electron.
 */
export function appMenuTemplate(platform: NodeJS.Platform, send: (command: UiCommand) => void): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const item = (label: string, command: UiCommand, accelerator: string): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => send(command)
  })
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [item('New Chat', 'new-chat', 'CmdOrCtrl+N'), { type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' }]
    },
    { role: 'editMenu' },
    {
      label: 'Conversation',
      submenu: [
        item('Summarize Conversation History…', 'summarize', 'CmdOrCtrl+Shift+S'),
        item('View Full History…', 'full-history', 'CmdOrCtrl+Shift+H'),
        item('Inspect Context…', 'inspect-context', 'CmdOrCtrl+Shift+I'),
        { type: 'separator' },
        item('Settings…', 'settings', 'CmdOrCtrl+,')
      ]
    },
    { role: 'viewMenu' },
    { role: 'windowMenu' }
  ]
}
