import type { MenuItemConstructorOptions } from 'electron'
import type { UiCommand } from '../../shared/contract'

/**
 * The application menu: the standard roles plus Distill's own commands, which the renderer carries
 * out (they arrive as 'ui.command' events). Pure, so its shape is tested without Electron.
 */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  send: (command: UiCommand) => void
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const item = (label: string, command: UiCommand, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    ...(accelerator ? { accelerator } : {}),
    click: () => send(command)
  })
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        item('New Chat', 'new-chat', 'CmdOrCtrl+N'),
        item('Search Chats…', 'search-chats', 'CmdOrCtrl+K'),
        { type: 'separator' },
        item('Export Chat as Markdown…', 'export-markdown'),
        item('Export Chat as JSON…', 'export-json'),
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' }
      ]
    },
    { role: 'editMenu' },
    {
      label: 'Conversation',
      submenu: [
        item('Summarize Conversation History…', 'summarize', 'CmdOrCtrl+Shift+S'),
        item('View Full History…', 'full-history', 'CmdOrCtrl+Shift+H'),
        item('Inspect Context…', 'inspect-context', 'CmdOrCtrl+Shift+I'),
        // No accelerator: a menu accelerator would take Esc from every dialog. Esc works in the page.
        item('Stop Reply (Esc)', 'stop-reply'),
        { type: 'separator' },
        item('Settings…', 'settings', 'CmdOrCtrl+,')
      ]
    },
    {
      label: 'View',
      submenu: [
        item('Toggle Sidebar', 'toggle-sidebar', 'CmdOrCtrl+B'),
        { type: 'separator' },
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' }
      ]
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [item('Keyboard Shortcuts', 'shortcuts', 'CmdOrCtrl+/')] }
  ]
}
