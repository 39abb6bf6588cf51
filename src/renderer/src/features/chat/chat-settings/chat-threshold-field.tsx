import type { Session } from '../../../../../shared/domain/session'
import { useSessionsStore } from '../../../stores/sessions-store'
import { useSettingsStore } from '../../../stores/settings-store'
import { useUsageStore } from '../../../stores/usage-store'
import { ChatNumberField } from './chat-number-field'

/**
 * "Compression threshold for this chat": its own share of the usable window, before its model's
 * (Settings → Models) and the default (Settings → Compression). Empty follows those.
 */
export function ChatThresholdField({ session }: { session: Session }) {
  const update = useSessionsStore((s) => s.update)
  const settings = useSettingsStore((s) => s.settings)
  const modelOwn = settings?.modelThresholds[`${session.provider}:${session.modelId}`]
  const inherited = modelOwn ?? settings?.thresholdPercent
  const from = modelOwn !== undefined ? 'this model’s, in Settings' : 'the default in Settings'
  return (
    <ChatNumberField
      label="Compression threshold for this chat (%)"
      hint="Share of the usable window at which this chat is summarized (50–99). Empty follows the model’s or the default."
      placeholder={inherited !== undefined ? `${inherited} (${from})` : 'From Settings'}
      saved={session.thresholdPercent}
      parse={(text) => {
        const digits = text.trim().replace(/\s*%$/, '')
        if (digits === '') return { value: null }
        const percent = Number(digits)
        return /^\d+$/.test(digits) && percent >= 50 && percent <= 99
          ? { value: percent }
          : { error: 'A whole number from 50 to 99' }
      }}
      write={async (thresholdPercent) => {
        await update(session.id, { thresholdPercent })
        useUsageStore.getState().refresh(session.id, { now: true })
      }}
    />
  )
}
