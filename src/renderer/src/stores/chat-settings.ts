import { resolveChatSettings, type ChatSettings } from '../../../shared/domain/chat-settings'
import type { Session } from '../../../shared/domain/session'
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/domain/settings'
import { useSettingsStore } from './settings-store'

/** The global settings as a chat inherits them (the defaults until the first read lands). */
export function useGlobalSettings(): Settings {
  return useSettingsStore((s) => s.settings) ?? DEFAULT_SETTINGS
}

/** What a chat uses, resolved the way the main process resolves it (shared/domain/chat-settings). */
export function useChatSettings(session: Session | null | undefined): ChatSettings | undefined {
  const settings = useGlobalSettings()
  return session ? resolveChatSettings(session, settings) : undefined
}
