import { resolveChatSettings, type ChatSettings } from '../../../shared/domain/chat-settings'
import {
  DEFAULT_SETTINGS,
  settingsFieldsSchema,
  type SettingKey,
  type Settings,
  type SettingsPatch
} from '../../../shared/domain/settings'
import { deleteSetting, readSettingRows, writeSetting } from '../../db/repositories/settings-repo'
import type { ServiceDeps } from '../service-deps'

export type SettingsService = ReturnType<typeof createSettingsService>

function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(DEFAULT_SETTINGS, key)
}

export function createSettingsService({ db, clock, emit, log }: ServiceDeps) {
  const warnings: string[] = []
  /** Settings the user saved (the others are defaults). */
  let stored = new Set<SettingKey>()

  /** Stored values validated one by one: a bad value falls back to its default and is reported. */
  function load(): Settings {
    const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS }
    stored = new Set()
    for (const { key, value } of readSettingRows(db)) {
      if (!isSettingKey(key)) continue // written by a newer version; kept, not used
      const parsed = settingsFieldsSchema.shape[key].safeParse(value)
      if (parsed.success) {
        settings[key] = parsed.data
        stored.add(key)
      } else {
        const warning = `The stored setting "${key}" was invalid (${parsed.error.issues[0]?.message}); using the default.`
        if (!warnings.includes(warning)) {
          warnings.push(warning)
          log.warn(warning)
        }
      }
    }
    return settings as Settings
  }

  let current = load()
  /** Values for this process only, never written (a replay's model and compression choices). */
  let overrides: Partial<Settings> = {}
  const effective = (): Settings => ({ ...current, ...overrides })

  /**
   * Writes a validated patch in one transaction (the router has already checked every value). A
   * null for a setting that cannot be null (the default model) forgets it: back to its default.
   */
  function update(patch: SettingsPatch): Settings {
    const now = clock.now()
    db.transaction((tx) => {
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue
        if (value === null && isSettingKey(key) && !settingsFieldsSchema.shape[key].safeParse(null).success)
          deleteSetting(tx, key)
        else writeSetting(tx, key, value, now)
      }
    })
    current = load()
    emit('settings.changed', { settings: effective() })
    return effective()
  }

  return {
    get(): Settings {
      return effective()
    },

    /** What a chat uses: its own choices, else these settings (one resolution for every service). */
    forChat(session: Parameters<typeof resolveChatSettings>[0]): ChatSettings {
      return resolveChatSettings(session, effective())
    },

    /**
     * Makes `patch` apply to everything this process does until the returned function is called,
     * without writing it: the saved settings stay what the user chose.
     */
    override(patch: Partial<Settings>): () => void {
      const previous = overrides
      overrides = { ...overrides, ...patch }
      return () => {
        overrides = previous
      }
    },

    /** Whether the user saved this setting (rather than leaving its default). */
    isStored(key: SettingKey): boolean {
      return stored.has(key)
    },

    /** Problems found in stored settings since start-up. */
    warnings(): string[] {
      return [...warnings]
    },

    update,

    /**
     * A chat's model picker chose this model: new chats start on it, unless Settings names a
     * default. Never touches that default.
     */
    chatModelChosen(session: Parameters<typeof resolveChatSettings>[0]): void {
      const { provider, modelId } = resolveChatSettings(session, current)
      const last = current.lastChatModel
      if (last?.provider === provider && last.modelId === modelId) return
      update({ lastChatModel: { provider, modelId } })
    }
  }
}
