import type { ContextMenuParams, MenuItemConstructorOptions } from 'electron'
import { isExternalWebUrl } from './url-policy'

export interface ContextMenuActions {
  replaceMisspelling(word: string): void
  addToDictionary(word: string): void
  copyText(text: string): void
  openLink(url: string): void
}

type Params = Pick<
  ContextMenuParams,
  'isEditable' | 'selectionText' | 'linkURL' | 'misspelledWord' | 'dictionarySuggestions' | 'editFlags'
>

/**
 * Electron shows no context menu by default. This is the one a user expects from a text app:
 * spelling suggestions, cut/copy/paste in editable fields, copy elsewhere, and link actions.
 * Returns an empty list when there is nothing useful to show.
 */
export function contextMenuTemplate(params: Params, actions: ContextMenuActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = []
  const section = (next: MenuItemConstructorOptions[]) => {
    if (next.length === 0) return
    if (items.length > 0) items.push({ type: 'separator' })
    items.push(...next)
  }

  if (params.isEditable && params.misspelledWord) {
    const word = params.misspelledWord
    const suggestions = params.dictionarySuggestions.slice(0, 5)
    section([
      ...(suggestions.length > 0
        ? suggestions.map((s): MenuItemConstructorOptions => ({ label: s, click: () => actions.replaceMisspelling(s) }))
        : [{ label: 'No suggestions', enabled: false }]),
      { label: 'Add to Dictionary', click: () => actions.addToDictionary(word) }
    ])
  }

  if (params.linkURL && isExternalWebUrl(params.linkURL)) {
    const url = params.linkURL
    section([
      { label: 'Open Link in Browser', click: () => actions.openLink(url) },
      { label: 'Copy Link', click: () => actions.copyText(url) }
    ])
  }

  const { editFlags } = params
  if (params.isEditable) {
    section([
      { role: 'undo', enabled: editFlags.canUndo },
      { role: 'redo', enabled: editFlags.canRedo },
      { type: 'separator' },
      { role: 'cut', enabled: editFlags.canCut },
      { role: 'copy', enabled: editFlags.canCopy },
      { role: 'paste', enabled: editFlags.canPaste },
      { type: 'separator' },
      { role: 'selectAll', enabled: editFlags.canSelectAll }
    ])
  } else if (params.selectionText.trim() !== '') {
    section([{ role: 'copy', enabled: editFlags.canCopy }])
  }
  return items
}
