import type { Settings } from '../../../shared/domain/settings'
import { readLocal, writeLocal } from './storage'

type Theme = Settings['theme']
const THEME_KEY = 'distill.theme'

/** 'system' follows prefers-color-scheme (styles.css); 'light' and 'dark' pin it. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
  writeLocal(THEME_KEY, theme)
}

/** Applies the theme remembered from the last run before anything renders, so nothing flashes. */
export function applyRememberedTheme(): void {
  const theme = readLocal(THEME_KEY)
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme
}
