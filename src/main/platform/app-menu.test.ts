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
})
