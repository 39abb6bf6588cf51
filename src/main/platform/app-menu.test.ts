import { describe, expect, it } from 'vitest'
import { appMenuTemplate } from './app-menu'

describe('application menu', () => {
  it('offers Summarize with a shortcut and forwards the command to the page', () => {
    const sent: string[] = []
    const menu = appMenuTemplate('linux', (c) => sent.push(c))
    const conversation = menu.find((m) => m.label === 'Conversation')!
    const items = conversation.submenu as Array<{ label?: string; accelerator?: string; click?: () => void }>
    const summarize = items.find((i) => i.label?.startsWith('Summarize'))!
    expect(summarize.accelerator).toBe('CmdOrCtrl+Shift+S')
    summarize.click!()
    expect(sent).toEqual(['summarize'])
    expect(menu.some((m) => m.role === 'appMenu')).toBe(false)
    expect(appMenuTemplate('darwin', () => {}).some((m) => m.role === 'appMenu')).toBe(true)
  })

  it('offers the everyday commands: search, export, stop and the shortcuts list', () => {
    const sent: string[] = []
    const menu = appMenuTemplate('linux', (c) => sent.push(c))
    const items = menu.flatMap((m) => (Array.isArray(m.submenu) ? m.submenu : [])) as Array<{
      label?: string
      accelerator?: string
      click?: () => void
    }>
    const byLabel = (label: string) => items.find((i) => i.label === label)!
    expect(byLabel('Search Chats…').accelerator).toBe('CmdOrCtrl+K')
    expect(byLabel('Keyboard Shortcuts').accelerator).toBe('CmdOrCtrl+/')
    // Esc stays with the page's dialogs.
    expect(byLabel('Stop Reply (Esc)').accelerator).toBeUndefined()
    expect(byLabel('Toggle Sidebar').accelerator).toBe('CmdOrCtrl+B')
    for (const label of [
      'Search Chats…',
      'Export Chat as Markdown…',
      'Export Chat as JSON…',
      'Stop Reply (Esc)',
      'Toggle Sidebar',
      'Keyboard Shortcuts'
    ])
      byLabel(label).click!()
    expect(sent).toEqual([
      'search-chats',
      'export-markdown',
      'export-json',
      'stop-reply',
      'toggle-sidebar',
      'shortcuts'
    ])
  })
})
