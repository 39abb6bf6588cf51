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

export const useSettingsStore = create<SettingsState>()((set) => ({
  settings: null,
  status: 'loading',
  error: null,

  async load() {
    try {
      const settings = await api.request('settings.get', {})
      set({ settings, status: 'ready', error: null })
    } catch (error) {
      set((s) => ({ status: s.settings ? 'ready' : 'error', error: errorMessage(error) }))
    }
  },

  async save(patch) {
    const settings = await api.request('settings.update', patch)
    set({ settings, status: 'ready', error: null })
    return settings
  },

  apply(settings) {
    set({ settings, status: 'ready', error: null })
  }
}))
