import type { Services } from '../services'
import { SLICED_MIN } from '../../tokens/encoders'
import { countMessageAsync } from '../../tokens/message-tokens'

/**
 * Counts a long text the user sends in slices before the service takes it, so the counts the send
 * makes synchronously (the request it builds, the meter) find it remembered instead of tokenizing
 * up to a million characters in one piece while every other request waits.
 */
export async function countFirst(services: Services, sessionId: string, text: string): Promise<void> {
  if (text.length < SLICED_MIN) return
  const { provider, modelId } = services.settings.forChat(services.sessions.get(sessionId))
  const spec = services.models.spec(provider, modelId)
  await countMessageAsync({ role: 'user', parts: [{ type: 'text', text }] }, spec)
}
