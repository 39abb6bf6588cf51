import { describe, expect, it } from 'vitest'
import { keyLabel, matchShortcut, type KeyLike } from './shortcuts'

const press = (key: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods
})
const anywhere = { typing: false, emptyComposer: false }
const typing = { typing: true, emptyComposer: false }

describe('keyboard shortcuts', () => {
  it('maps Ctrl and ⌘ chords whether or not a field has focus', () => {
    expect(matchShortcut(press('O', { ctrlKey: true, shiftKey: true }), typing)).toBe('new-chat')
    expect(matchShortcut(press('o', { metaKey: true, shiftKey: true }), anywhere)).toBe('new-chat')
    expect(matchShortcut(press('k', { ctrlKey: true }), typing)).toBe('search-chats')
    expect(matchShortcut(press('b', { ctrlKey: true }), typing)).toBe('toggle-sidebar')
    expect(matchShortcut(press('b', { metaKey: true }), typing)).toBe('toggle-sidebar')
    expect(matchShortcut(press('/', { ctrlKey: true }), typing)).toBe('shortcuts')
    // The browser's own chords stay the browser's.
    expect(matchShortcut(press('o', { ctrlKey: true }), anywhere)).toBeNull()
    expect(matchShortcut(press('k', { ctrlKey: true, altKey: true }), anywhere)).toBeNull()
  })

  it('reads ? as typing inside a field, and ↑ as recall only in an empty message box', () => {
    expect(matchShortcut(press('?', { shiftKey: true }), anywhere)).toBe('shortcuts')
    expect(matchShortcut(press('?', { shiftKey: true }), typing)).toBeNull()
    expect(matchShortcut(press('ArrowUp'), { typing: true, emptyComposer: true })).toBe('recall-last')
    expect(matchShortcut(press('ArrowUp'), typing)).toBeNull()
    expect(matchShortcut(press('ArrowUp', { altKey: true }), { typing: true, emptyComposer: true })).toBeNull()
    expect(matchShortcut(press('Escape'), typing)).toBe('stop-reply')
  })

  it('labels keys the way each platform prints them', () => {
    expect(['Mod', 'Shift', 'O'].map((k) => keyLabel(k, false))).toEqual(['Ctrl', 'Shift', 'O'])
    expect(['Mod', 'Shift', 'O'].map((k) => keyLabel(k, true))).toEqual(['⌘', '⇧', 'O'])
  })
})
