import { useRef, useState } from 'react'
import { toast } from 'sonner'
import type { ProviderId } from '../../../../shared/domain/provider'
import { errorMessage } from '../../api/api-error'
import { formatTokens } from '../../lib/format-tokens'
import { useSessionDetails, useSessionsStore } from '../../stores/sessions-store'
import { useChatSettings } from '../../stores/chat-settings'
import { useUsageStore } from '../../stores/usage-store'
import { ModelSelect } from '../providers/model-select'
import './model-picker.css'

type Choice = { provider: ProviderId; modelId: string }

/** The chat's model, in its header. A change applies to the next reply; the meter follows at once. */
export function ModelPicker({ sessionId }: { sessionId: string }) {
  const session = useSessionDetails(sessionId)
  const chat = useChatSettings(session)
  const update = useSessionsStore((s) => s.update)
  /** Shown while the change is on its way, so the select does not jump back. */
  const [pending, setPending] = useState<Choice | null>(null)
  /** Arrow keys on a closed select change it once per press: only the last change settles it. */
  const seq = useRef(0)

  const provider = chat?.provider
  const modelId = chat?.modelId
  const saved: Choice | null = session && provider && modelId ? { provider, modelId } : null
  const value = pending ?? saved

  async function change(next: Choice) {
    const mine = ++seq.current
    setPending(next)
    try {
      await update(sessionId, { provider: next.provider, modelId: next.modelId })
      if (mine === seq.current) useUsageStore.getState().refresh(sessionId, { now: true })
    } catch (error) {
      if (mine === seq.current) toast.error('Could not switch the model', { description: errorMessage(error) })
    } finally {
      if (mine === seq.current) setPending(null)
    }
  }

  return (
    <ModelSelect
      className="model-picker"
      ariaLabel="Model"
      value={value}
      onChange={(provider, modelId) => void change({ provider, modelId })}
      // The window the chat's budget uses: its own, when Chat settings set one (as the meter says).
      windowText={session?.contextWindow ? formatTokens(session.contextWindow) : undefined}
    />
  )
}
