import { create } from 'zustand'
import type { Settings, SettingsPatch } from '../../../shared/domain/settings'
import { api } from '../api/client'
import { errorMessage } from '../api/api-error'

interface SettingsState {
  settings: Settings | null
  status: 'loading' | 'ready' | 'error'
  error: string | null
  load(): Promise<void>
  /** Throws the ApiError (with per-field issues) when the server refuses a value. */
  save(patch: SettingsPatch): Promise<Settings>
  /** A 'settings.changed' event arrived. */
  apply(settings: Settings): void
}

/**
 * Bumped whenever newer settings arrive (an event or a save): a read that started before them answers
 * with what was true then, and must not overwrite them (a page still loading while another window, or
 * the CLI, saves).
 */
let generation = 0
/** Reads in the order they were asked: a later one saw later settings, so an earlier one answering after it is dropped. */
let reads = 0
let readShown = 0

export const useSettingsStore = create<SettingsState>()((set) => ({
  settings: null,
  status: 'loading',
  error: null,

  async load() {
    const started = generation
    const read = ++reads
    try {
      const settings = await api.request('settings.get', {})
      if (generation !== started || read < readShown) return
      readShown = read
      set({ settings, status: 'ready', error: null })
    } catch (error) {
      set((s) => ({ status: s.settings ? 'ready' : 'error', error: errorMessage(error) }))
    }
  },

  async save(patch) {
    const settings = await api.request('settings.update', patch)
    generation++
    set({ settings, status: 'ready', error: null })
    return settings
  },

  apply(settings) {
    generation++
    set({ settings, status: 'ready', error: null })
  }
}))
