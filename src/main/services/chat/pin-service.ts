import type { ChatMessage } from '../../../shared/domain/chat-message'
import { pinRefusal } from '../../../shared/domain/pins'
import { AppError } from '../../../shared/app-error'
import { findMessage } from '../../db/repositories/messages/messages-repo'
import { isOnPath, versionInfo } from '../../db/repositories/messages/message-versions-repo'
import { listPins, setPinned } from '../../db/repositories/messages/pins-repo'
import { noteWrite } from '../../db/repositories/write-generation'
import { pinsReport } from '../conversation/pin-share'
import type { UsageService } from '../conversation/usage-service'
import type { ServiceDeps } from '../service-deps'
import type { SessionsService } from '../sessions/sessions-service'
import type { SettingsService } from '../settings/settings-service'

export interface PinServiceDeps extends ServiceDeps {
  usage: UsageService
  settings: SettingsService
  sessions: SessionsService
}

/** A refused pin rolls its write back; this carries the sentence out of the transaction. */
class Refused extends Error {}

/**
 * Pins and unpins messages. A pin is refused when all pins together would pass the share of the
 * chat's usable budget set in Settings, measured by the same reader as the meter (the pin is written,
 * the chat read as its next request would carry it, and the write rolled back if it does not fit).
 */
export function createPinService(deps: PinServiceDeps) {
  const { db, clock, emit } = deps

  function publish(message: ChatMessage): { message: ChatMessage } {
    const version = versionInfo(db, message.id)
    const shown = version ? { ...message, version } : message
    emit('chat.message', { message: shown })
    emit('usage.changed', { sessionId: message.sessionId })
    return { message: shown }
  }

  return {
    list(sessionId: string): { messages: ChatMessage[] } {
      deps.sessions.get(sessionId) // a chat that is gone is `not_found`
      return { messages: listPins(db, sessionId) }
    },

    pin(sessionId: string, messageId: string, pinned: boolean): { message: ChatMessage } {
      const found = findMessage(db, messageId)
      const message = found?.sessionId === sessionId && isOnPath(db, messageId) ? found : undefined
      if (!message) throw new AppError('not_found', 'That message is not in this chat any more.')
      if (message.role !== 'user' && message.role !== 'assistant')
        throw new AppError('invalid_input', 'Only your messages and replies can be pinned.')
      if (message.status === 'streaming') throw new AppError('busy', 'Wait for the reply to finish, then pin it.')
      if (pinned === (message.pinnedAt !== undefined)) return publish(message)
      if (!pinned) return publish(setPinned(db, messageId, null)!)
      const limit = deps.settings.get().pinShareLimit
      try {
        const updated = db.transaction(() => {
          const row = setPinned(db, messageId, clock.now())!
          const share = pinsReport(deps.usage.conversation(sessionId), limit)
          if (share && share.percent > limit) throw new Refused(pinRefusal(share.percent, limit))
          return row
        })
        return publish(updated)
      } catch (err) {
        if (!(err instanceof Refused)) throw err
        // Caches read while the pin was written must not outlive the rollback.
        noteWrite(db, sessionId, message.seq)
        throw new AppError('conflict', err.message)
      }
    }
  }
}

export type PinService = ReturnType<typeof createPinService>
