import type { ProviderId } from '../../../shared/domain/provider'
import type { Session, SessionSummary, Strategy } from '../../../shared/domain/session'
import {
  allSessions,
  deleteSession,
  findSession,
  insertSession,
  listSessions,
  sessionSummaries,
  sessionsWithTitleWords,
  titleTaken,
  updateSession,
  type SessionCursor
} from '../../db/repositories/sessions-repo'
import { listMessages } from '../../db/repositories/messages/messages-repo'
import { listAllVersions } from '../../db/repositories/messages/message-versions-repo'
import { ftsQuery } from '../../db/repositories/search-repo'
import { searchChats } from '../../db/repositories/chat-search-repo'
import { snippetRanges, wordRanges } from './snippet-ranges'
import { listSnapshots } from '../../db/repositories/snapshots-repo'
import { findProject } from '../../db/repositories/projects-repo'
import { discardUnreferencedFiles, findImport, type ImportRecord } from '../../db/repositories/imports-repo'
import { sqliteClient } from '../../db/repositories/sqlite-client'
import type { Db } from '../../db/client'
import {
  SEARCH_CHATS,
  SEARCH_PASSAGES,
  SESSION_PAGE_DEFAULT,
  type SessionSearch
} from '../../../shared/contract/sessions'
import { AppError, notFound } from '../../../shared/app-error'
import { chatToJson, chatToMarkdown, exportFileName, type ExportFileSource, type ExportFormat } from './chat-export'
import type { ServiceDeps } from '../service-deps'
import { summarySourcesNow } from './summary-sources'
import type { Snapshot } from '../../../shared/domain/snapshot'

export const DEFAULT_SESSION_TITLE = 'New chat'

export interface SessionPage {
  sessions: SessionSummary[]
  nextCursor: string | null
}

/** A cursor is the last listed chat's `updatedAt:id`; anything else is refused, not read as a start. */
function parseCursor(cursor: string): SessionCursor {
  const at = cursor.indexOf(':')
  const updatedAt = Number(cursor.slice(0, at))
  if (at < 1 || !Number.isSafeInteger(updatedAt))
    throw new AppError('invalid_input', 'That page of the chat list does not exist: start again from the first page.')
  return { updatedAt, id: cursor.slice(at + 1) }
}

export type SessionsService = ReturnType<typeof createSessionsService>

export interface SessionUpdate {
  provider?: ProviderId
  modelId?: string
  systemPrompt?: string | null
  strategy?: Strategy | null
  autoCompress?: boolean | null
  recall?: boolean | null
  projectId?: string | null
  recallAcrossChats?: boolean | null
  reviewSummaries?: boolean | null
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
    /** Every chat with its count and preview (`distill sessions`); the sidebar reads `page`. */
    list(query?: string): SessionSummary[] {
      return listSessions(db, query)
    },

    /** Every chat's settings, no counts or previews (a change that concerns some chats of all). */
    all(): Session[] {
      return allSessions(db)
    },

    /** A page of the chat list after `cursor` (the `nextCursor` of the page before). */
    page({
      query,
      cursor,
      limit = SESSION_PAGE_DEFAULT
    }: {
      query?: string
      cursor?: string
      limit?: number
    }): SessionPage {
      // One more than asked says whether another page follows without counting the chats.
      const rows = listSessions(db, query, {
        after: cursor === undefined ? undefined : parseCursor(cursor),
        limit: limit + 1
      })
      const sessions = rows.slice(0, limit)
      const last = sessions.at(-1)
      return { sessions, nextCursor: rows.length > limit && last ? `${last.updatedAt}:${last.id}` : null }
    },

    get,

    /**
     * Chats whose title or messages hold every word typed. Title matches come first (most recent
     * first), then chats found by their messages, best bm25 rank first; each carries its best few
     * messages (passages with the matched words as ranges) so the sidebar can show them and open
     * the chat at one. The totals count every chat found, not only those returned.
     */
    search(query: string, limit = SEARCH_CHATS): SessionSearch {
      if (!ftsQuery(query)) return { results: [], matches: 0, titleMatches: 0, chats: 0, countIsLowerBound: false }
      const words = query.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w))
      const byTitle = sessionsWithTitleWords(db, words, limit)
      const found = searchChats(db, query, {
        limit,
        passages: SEARCH_PASSAGES,
        titled: byTitle.map((s) => s.id)
      })
      const content = new Map(found.rows.map((row) => [row.sessionId, row]))
      const hitsOf = (id: string) => {
        const row = content.get(id)
        return {
          passages: (row?.passages ?? []).map(({ snippet, ...passage }) => ({ ...passage, ...snippetRanges(snippet) })),
          count: row?.matches ?? 0,
          countIsLowerBound: row?.countIsLowerBound ?? false
        }
      }
      const titled = new Set(byTitle.map((s) => s.id))
      const others = sessionSummaries(
        db,
        found.rows.filter((r) => !titled.has(r.sessionId)).map((r) => r.sessionId)
      )
      const results = [
        ...byTitle.map((s) => ({ ...s, titleMatch: true, titleRanges: wordRanges(s.title, words), ...hitsOf(s.id) })),
        ...found.rows.flatMap((r) => {
          const s = others.get(r.sessionId)
          return s ? [{ ...s, titleMatch: false, titleRanges: [], ...hitsOf(s.id) }] : []
        })
      ].slice(0, limit)
      return {
        results,
        // The messages the chats' own counts add up to; the titles apart (a title is not a message).
        matches: found.matches,
        titleMatches: byTitle.length,
        chats: found.chats,
        // A full page of title matches may have more behind it.
        countIsLowerBound: found.countIsLowerBound || byTitle.length === limit
      }
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
      if (change.projectId && !findProject(db, change.projectId)) throw notFound('The project')
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
      // A draft waiting for review replaced nothing yet: it stays with the chat, not the file.
      const snapshots = listSnapshots(db, id).filter((s) => s.status !== 'draft')
      // The active summary's lines name the messages they came from (issue 37).
      const sourcesOf = (s: Snapshot) => summarySourcesNow(db, s)
      if (format === 'md')
        return {
          filename: exportFileName(session.title, 'md'),
          mimeType: 'text/markdown',
          text: chatToMarkdown(session, listMessages(db, id), snapshots, sourcesOf)
        }
      const project = session.projectId ? findProject(db, session.projectId)?.name : undefined
      // Every version, the ones set aside included: an import brings back ‹ 1/2 › as it was.
      const json = chatToJson(session, listAllVersions(db, id), snapshots, clock.now(), files, project, sourcesOf)
      return {
        filename: exportFileName(session.title, 'json'),
        mimeType: 'application/json',
        text: `${JSON.stringify(json, null, 2)}\n`
      }
    },

    /** The chat an earlier import with this content hash made, while it still exists. */
    importedBefore(contentHash: string): ImportRecord | undefined {
      return findImport(db, contentHash)
    },

    /** The title an imported chat gets: its own, or "… (copy)" when a chat here already has it. */
    importTitle(title: string): string {
      return titleTaken(db, title) ? `${title.slice(0, 193)} (copy)` : title
    },

    /**
     * Where an import writes, and its time: the database file (the import thread writes it on its
     * own connection, in one transaction) or, for an in-memory database, this connection.
     */
    importTarget(): ({ file: string } | { db: Db }) & { now: number } {
      const client = sqliteClient(db)
      return { ...(client.memory ? { db } : { file: client.name }), now: clock.now() }
    },

    /** A chat an import wrote, announced to the renderer. */
    imported(id: string): Session {
      const session = get(id)
      emit('sessions.changed', { sessionId: id, reason: 'created' })
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
