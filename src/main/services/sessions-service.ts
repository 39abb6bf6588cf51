import type { ProviderId } from '../../shared/domain/provider'
import type { Session, SessionSummary, Strategy } from '../../shared/domain/session'
import {
  deleteSession,
  findSession,
  insertSession,
  listSessions,
  sessionSummaries,
  sessionsWithTitleWords,
  updateSession
} from '../db/repositories/sessions-repo'
import { listMessages } from '../db/repositories/messages-repo'
import { listAllVersions } from '../db/repositories/message-versions-repo'
import { ftsQuery, searchChats } from '../db/repositories/history-repo'
import { insertSummary, listSnapshots, setSnapshotStatus } from '../db/repositories/snapshots-repo'
import { discardUnreferencedFiles, findImport, insertRestoredMessages, recordImport, type ImportRecord } from '../db/repositories/imports-repo'
import type { DistillExport, PlacedMessage } from '../importers/distill-export'
import { AlreadyImported } from '../importers/openai-messages'
import type { SessionSearchResult } from '../../shared/contract/sessions'
import { AppError, notFound } from '../../shared/app-error'
import { chatToJson, chatToMarkdown, exportFileName, type ExportFileSource, type ExportFormat } from './chat-export'
import type { ServiceDeps } from './service-deps'

export const DEFAULT_SESSION_TITLE = 'New chat'

export type SessionsService = ReturnType<typeof createSessionsService>

/** An export made ready to write: every message in seq order with its count for the chat's model. */
export interface RestoredChat {
  data: DistillExport
  messages: ReadonlyArray<PlacedMessage & { count: { tokens: number; counter: string } }>
  /** What the duplicate check compares (see import-distill-chat.ts). */
  contentHash: string
  /** The file name, kept with the import record. */
  source: string
  again?: boolean
}

export interface SessionUpdate {
  provider?: ProviderId
  modelId?: string
  systemPrompt?: string | null
  strategy?: Strategy | null
  autoCompress?: boolean | null
  recall?: boolean | null
  contextWindow?: number | null
  maxOutput?: number | null
  thresholdPercent?: number | null
}

export function createSessionsService(
  { db, clock, ids, emit }: ServiceDeps,
  defaults: () => { provider: ProviderId; modelId: string },
  /** Stored attachments, for a JSON export to carry their bytes. */
  files?: ExportFileSource
) {
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

    /**
     * Chats whose title or messages hold every word typed. Title matches come first (most recent
     * first), then chats found by their messages, best bm25 rank first; each carries its best
     * message so the sidebar can show the passage and open the chat at it.
     */
    search(query: string, limit = 50): SessionSearchResult[] {
      if (!ftsQuery(query)) return []
      const words = query.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w))
      const byTitle = sessionsWithTitleWords(db, words)
      const byContent = searchChats(db, query, limit)
      const content = new Map(byContent.map((row) => [row.sessionId, row]))
      const matchOf = (id: string): SessionSearchResult['match'] => {
        const row = content.get(id)
        return row ? { messageId: row.messageId, seq: row.seq, role: row.role, snippet: row.snippet, count: row.matches } : null
      }
      const titled = new Set(byTitle.map((s) => s.id))
      const others = sessionSummaries(db, byContent.filter((r) => !titled.has(r.sessionId)).map((r) => r.sessionId))
      return [
        ...byTitle.map((s) => ({ ...s, titleMatch: true, match: matchOf(s.id) })),
        ...byContent.flatMap((r) => {
          const s = others.get(r.sessionId)
          return s ? [{ ...s, titleMatch: false, match: matchOf(s.id) }] : []
        })
      ].slice(0, limit)
    },

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

    /**
     * Replaces a title the app chose, unless the user renamed the chat meanwhile (compare and set).
     * Not activity: the chat keeps its place in the list.
     */
    retitle(id: string, expected: string, title: string): boolean {
      const current = findSession(db, id)
      if (!current || current.title !== expected || title === expected) return false
      updateSession(db, id, { title })
      emit('sessions.changed', { sessionId: id, reason: 'updated' })
      return true
    },

    /** Changes the chat's model, system prompt or compression overrides. */
    update(id: string, change: SessionUpdate): Session {
      const window = change.contextWindow !== undefined ? change.contextWindow : get(id).contextWindow
      const reserve = change.maxOutput !== undefined ? change.maxOutput : get(id).maxOutput
      if (window !== null && reserve !== null && reserve > window / 2) {
        throw new AppError('invalid_input', 'The reply can reserve at most half of the context window.')
      }
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

    /** The chat as a file: a Markdown transcript, or the JSON `distill import` reads back. */
    export(id: string, format: ExportFormat): { filename: string; mimeType: string; text: string } {
      const session = get(id)
      const snapshots = listSnapshots(db, id)
      return format === 'md'
        ? { filename: exportFileName(session.title, 'md'), mimeType: 'text/markdown', text: chatToMarkdown(session, listMessages(db, id), snapshots) }
        : {
            filename: exportFileName(session.title, 'json'),
            mimeType: 'application/json',
            // Every version, the ones set aside included: an import brings back ‹ 1/2 › as it was.
            text: `${JSON.stringify(chatToJson(session, listAllVersions(db, id), snapshots, clock.now(), files), null, 2)}\n`
          }
    },

    /** The chat an earlier import with this content hash made, while it still exists. */
    importedBefore(contentHash: string): ImportRecord | undefined {
      return findImport(db, contentHash)
    },

    /**
     * Writes an exported chat back as a new chat in one transaction, every version included:
     * messages keep their order (seq), roles, content, times, status and counts; versions and
     * summaries point at the new ids. Refused, writing nothing, when the same content was imported
     * before (checked again inside the transaction) unless `again`.
     */
    restore(chat: RestoredChat): Session {
      const session = db.transaction((tx) => {
        const earlier = chat.again ? undefined : findImport(tx, chat.contentHash)
        if (earlier) throw new AlreadyImported(earlier)
        const s = chat.data.session
        const session = insertSession(tx, {
          id: ids(),
          title: s.title,
          provider: s.provider,
          modelId: s.modelId,
          strategy: s.strategy,
          autoCompress: s.autoCompress,
          systemPrompt: s.systemPrompt,
          createdAt: s.createdAt,
          updatedAt: clock.now(),
          archived: false
        })
        const newId = new Map(chat.messages.map((m) => [m.message.id, ids()]))
        const mapMessage = (id: string) => newId.get(id) ?? id
        insertRestoredMessages(
          tx,
          session.id,
          chat.messages.map(({ message: m, seq, versionGroup, hiddenIn, count }) => ({
            id: newId.get(m.id)!,
            seq,
            role: m.role,
            parts: m.parts,
            // Nothing can still be streaming in a file.
            status: m.status === 'streaming' ? 'aborted' : m.status,
            error: m.error ?? null,
            inputTokens: m.usage?.inputTokens ?? null,
            outputTokens: m.usage?.outputTokens ?? null,
            createdAt: m.createdAt,
            tokenCount: count.tokens,
            tokenCounter: count.counter,
            versionGroup: versionGroup && mapMessage(versionGroup),
            hiddenIn: hiddenIn && mapMessage(hiddenIn)
          }))
        )
        const snapshotIds = new Map(chat.data.snapshots.map((snap) => [snap.id, ids()]))
        for (const snap of chat.data.snapshots) {
          const c = snap.content
          const content = {
            ...c,
            messageRange: { firstMessageId: mapMessage(c.messageRange.firstMessageId), lastMessageId: mapMessage(c.messageRange.lastMessageId) },
            previousSnapshotId: c.previousSnapshotId ? (snapshotIds.get(c.previousSnapshotId) ?? null) : null,
            ...(c.tiered
              ? { tiered: { ...c.tiered, ...(c.tiered.summarySnapshotId ? { summarySnapshotId: snapshotIds.get(c.tiered.summarySnapshotId) } : {}) } }
              : {})
          }
          const id = snapshotIds.get(snap.id)!
          insertSummary(tx, {
            id,
            sessionId: session.id,
            kind: snap.kind,
            content,
            // A snapshot always covers up to a message; the parser checked it exists.
            messageCutoffId: mapMessage(snap.messageCutoffId ?? c.messageRange.lastMessageId),
            tokenCount: snap.tokenCount,
            createdAt: snap.createdAt
          })
          if (snap.status !== 'active') setSnapshotStatus(tx, id, snap.status)
        }
        recordImport(tx, { sessionId: session.id, contentHash: chat.contentHash, source: chat.source, importedAt: clock.now() })
        return session
      })
      emit('sessions.changed', { sessionId: session.id, reason: 'created' })
      return session
    },

    /** Forgets files an import stored before it failed, unless a message references them; returns those forgotten. */
    discardFiles(hashes: readonly string[]): string[] {
      return discardUnreferencedFiles(db, hashes)
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
