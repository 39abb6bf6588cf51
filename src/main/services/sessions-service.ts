import type { ProviderId } from '../../shared/domain/provider'
import type { Session, SessionSummary, Strategy } from '../../shared/domain/session'
import {
  deleteSession,
  findSession,
  insertSession,
  listSessions,
  updateSession
} from '../db/repositories/sessions-repo'
import { notFound } from '../../shared/app-error'
import type { ServiceDeps } from './service-deps'

export const DEFAULT_SESSION_TITLE = 'New chat'

export type SessionsService = ReturnType<typeof createSessionsService>

export interface SessionUpdate {
  provider?: ProviderId
  modelId?: string
  systemPrompt?: string | null
  strategy?: Strategy | null
  autoCompress?: boolean | null
  recall?: boolean | null
}

export function createSessionsService({ db, clock, ids, emit }: ServiceDeps, defaults: () => { provider: ProviderId; modelId: string }) {
  function get(id: string): Session {
    const session = findSession(db, id)
    if (!session) throw notFound('The chat')
    return session
  }

  return {
    list(query?: string): SessionSummary[] {
      return listSessions(db, query)
    },

    get,

    create(title?: string): Session {
      const now = clock.now()
      const { provider, modelId } = defaults()
      const session = insertSession(db, {
        id: ids(),
        title: title ?? DEFAULT_SESSION_TITLE,
        provider,
        modelId,
        createdAt: now,
        updatedAt: now,
        archived: false
      })
      emit('sessions.changed', { sessionId: session.id, reason: 'created' })
      return session
    },

    rename(id: string, title: string): Session {
      const session = updateSession(db, id, { title, updatedAt: clock.now() })
      if (!session) throw notFound('The chat')
      emit('sessions.changed', { sessionId: id, reason: 'updated' })
      return session
    },

    /** Changes the chat's model, system prompt or compression overrides. */
    update(id: string, change: SessionUpdate): Session {
      const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined))
      // Not activity: the chat keeps its place in the list.
      const session = Object.keys(defined).length ? updateSession(db, id, defined) : findSession(db, id)
      if (!session) throw notFound('The chat')
      emit('sessions.changed', { sessionId: id, reason: 'updated' })
      return session
    },

    /** Deletes the chat with its messages and snapshots (the renderer asks for confirmation first). */
    remove(id: string): { id: string } {
      if (!deleteSession(db, id)) throw notFound('The chat')
      emit('sessions.changed', { sessionId: id, reason: 'deleted' })
      return { id }
    },

    /** Moves a chat to the top of the list after activity in it. */
    touch(id: string, patch: { title?: string } = {}): Session {
      const session = updateSession(db, id, { ...patch, updatedAt: clock.now() })
      if (!session) throw notFound('The chat')
      emit('sessions.changed', { sessionId: id, reason: 'updated' })
      return session
    }
  }
}
