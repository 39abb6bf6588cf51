import type { ChatMessage, MessageError, MessagePart } from '../../../shared/domain/chat-message'
import { PROVIDER_LABELS } from '../../../shared/domain/provider'
import type { Session } from '../../../shared/domain/session'
import {
  appendMessage,
  findMessage,
  lastMessage,
  listMessages,
  markInterruptedReplies,
  updateMessage
} from '../../db/repositories/messages/messages-repo'
import {
  isOnPath,
  listVersions,
  restoreVersion,
  setAsideFrom,
  versionGroupOf,
  versionInfo,
  versionsOf,
  versionsOnPath
} from '../../db/repositories/messages/message-versions-repo'
import { pathSeqBefore } from '../../db/repositories/messages/message-page-repo'
import type { MessageCursor } from '../../../shared/contract/message-page'
import { readPage } from '../sessions/message-page'
import { DEFAULT_STALL_MS } from '../../providers/provider-timing'
import { streamIntoReply } from './stream-into-reply'
import { createTurnWriter, LONG_MESSAGE_CHARS } from './turn-writer'
import type { ChatServiceOptions } from './chat-service-options'
import { AppError } from '../../../shared/app-error'
import type { ServiceDeps } from '../service-deps'

export type ChatService = ReturnType<typeof createChatService>

export function createChatService(deps: ServiceDeps & ChatServiceOptions) {
  const { db, clock, ids, emit, log, sessions, providers } = deps
  const stallMs = deps.stallMs ?? DEFAULT_STALL_MS
  /** One reply at a time per chat; Stop aborts it. */
  const active = new Map<string, { controller: AbortController; done: Promise<void> }>()
  const { emptyReply, writeTurn, writeLongTurn, saving } = createTurnWriter(deps)

  const interrupted =
    deps.repairInterrupted === false
      ? 0
      : markInterruptedReplies(db, {
          code: 'interrupted',
          message: 'Distill was closed while this reply was streaming.'
        })
  if (interrupted > 0) log.warn(`Marked ${interrupted} interrupted replies as stopped`)

  function publish(message: ChatMessage): ChatMessage {
    const version = versionInfo(db, message.id)
    const shown = version ? { ...message, version } : message
    emit('chat.message', { message: shown })
    return shown
  }

  function fail(reply: ChatMessage, error: MessageError): ChatMessage {
    return publish(updateMessage(db, reply.id, { status: 'error', error })!)
  }

  /**
   * Counts a message just written a turn of the event loop later: storing a message of a million
   * characters and rewriting its row with the count were one long stretch together. The reply
   * waits for it (`startReply`), so its request finds the count stored.
   */
  function countLater(message: ChatMessage, session: Session): Promise<void> {
    return new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => deps.reply?.messageWritten(message, session))
      .catch((err: unknown) => log.warn('Counting a message failed', err))
  }

  /** Streams the reply into an existing assistant message row, once `written` (the count of the message it answers) is done. */
  function startReply(session: Session, reply: ChatMessage, written?: Promise<void>, message?: ChatMessage): void {
    const { provider, modelId } = deps.settings.forChat(session)
    const status = providers.status(provider)
    if (!status.ready) {
      fail(reply, {
        code: 'not_configured',
        message:
          provider === 'openai-compatible'
            ? 'Set the address of your local server (for example http://127.0.0.1:11434/v1) in Settings.'
            : `Add your ${PROVIDER_LABELS[provider]} API key in Settings to chat with ${modelId}.`
      })
      return
    }
    const controller = new AbortController()
    const done = (async () => {
      await streamIntoReply(
        { ...deps, stallMs, publish },
        { session, reply, provider, modelId, signal: controller.signal, written, message }
      )
    })()
      .catch((err: unknown) => {
        log.error('Reply crashed', err)
        fail(reply, { code: 'internal', message: 'Something went wrong inside Distill while streaming.' })
      })
      .finally(() => active.delete(session.id))
    active.set(session.id, { controller, done })
  }

  function assertIdle(sessionId: string): void {
    if (saving(sessionId)) throw new AppError('busy', 'A message is still being saved in this chat.')
    if (active.has(sessionId)) {
      throw new AppError('busy', 'A reply is still streaming in this chat. Stop it or wait for it to finish.')
    }
  }

  /** The parts of the files being sent, refused before anything is written when the chat's model cannot take them. */
  function attachmentParts(
    sessionId: string,
    attached: readonly { hash: string; filename: string }[],
    text: string
  ): MessagePart[] {
    if (attached.length === 0) return []
    if (!deps.attachments) throw new AppError('invalid_input', 'This process cannot take attachments.')
    const session = sessions.get(sessionId)
    const { provider, modelId } = deps.settings.forChat(session)
    return deps.attachments.partsFor(attached, provider, modelId, text)
  }

  /** What the chat's model takes: the composer refuses an image before upload when it takes none. */
  function attachmentsAccepted(sessionId: string): { vision: boolean; imageRefusal: string | null } {
    const session = sessions.get(sessionId)
    const { provider, modelId } = deps.settings.forChat(session)
    return (
      deps.attachments?.accepts(provider, modelId) ?? {
        vision: false,
        imageRefusal: 'This process cannot take attachments.'
      }
    )
  }

  /** A message on the chat's path that may get a new version: not summarized, nothing running. */
  function editable(sessionId: string, messageId: string, role: ChatMessage['role']): ChatMessage {
    assertIdle(sessionId)
    const found = findMessage(db, messageId)
    const message = found?.sessionId === sessionId && isOnPath(db, messageId) ? found : undefined
    if (!message || message.role !== role) throw new AppError('not_found', 'That message is not in this chat any more.')
    const state = deps.reply?.summaryState(sessionId) ?? { cutoffSeq: 0, running: false }
    if (state.running)
      throw new AppError('busy', 'A summary is being written for this chat. Try again when it is done.')
    if (message.seq <= state.cutoffSeq) {
      throw new AppError(
        'conflict',
        'This message is already summarized, so it can no longer be changed. Its summary stands for it.'
      )
    }
    return message
  }

  /** The conversation as it stands, each versioned message with its number (‹ 2/3 ›). */
  function conversation(sessionId: string): ChatMessage[] {
    sessions.get(sessionId)
    const versions = versionsOnPath(db, sessionId)
    const messages = listMessages(db, sessionId)
    return versions.size
      ? messages.map((m) => (versions.has(m.id) ? { ...m, version: versions.get(m.id)! } : m))
      : messages
  }

  /** A page of the conversation, each versioned message of it with its number. */
  function page(
    sessionId: string,
    cursor: MessageCursor = {}
  ): { messages: ChatMessage[]; hasOlder: boolean; hasNewer: boolean } {
    sessions.get(sessionId)
    const read = readPage(db, sessionId, cursor)
    const versions = versionsOf(
      db,
      read.messages.map((m) => m.id)
    )
    return versions.size
      ? {
          ...read,
          messages: read.messages.map((m) => (versions.has(m.id) ? { ...m, version: versions.get(m.id)! } : m))
        }
      : read
  }

  return {
    attachmentsAccepted,
    /** The whole conversation (tests, tools); the app reads it in pages. */
    messages: conversation,
    page,

    /** A new reply in place of `messageId`; it and the turns after it stay as the previous version. */
    regenerate(sessionId: string, messageId: string): { reply: ChatMessage } {
      const old = editable(sessionId, messageId, 'assistant')
      const reply = db.transaction((tx) => {
        const group = versionGroupOf(tx, old.id) ?? old.id
        setAsideFrom(tx, sessionId, old)
        return emptyReply(tx, sessionId, group)
      })
      const shown = publish(reply)
      startReply(sessions.get(sessionId), reply)
      return { reply: shown }
    },

    /** Sends an edited copy of a user message; the original and the turns after it stay as the previous version. */
    edit(sessionId: string, messageId: string, text: string): { message: ChatMessage; reply: ChatMessage } {
      const old = editable(sessionId, messageId, 'user')
      const { message, reply, session } = db.transaction((tx) => {
        const group = versionGroupOf(tx, old.id) ?? old.id
        setAsideFrom(tx, sessionId, old)
        return writeTurn(
          sessionId,
          text,
          group,
          old.parts.filter((p) => p.type === 'attachment')
        )
      })
      const shown = publish(message)
      publish(reply)
      startReply(session, reply, countLater(message, session), message)
      return { message: shown, reply }
    },

    /**
     * Puts version `number` of a message, with the turns that followed it, back in use. Returns the
     * conversation from that message on (a page): everything before it is unchanged.
     */
    switchVersion(
      sessionId: string,
      messageId: string,
      number: number
    ): { messages: ChatMessage[]; hasOlder: boolean; hasNewer: boolean } {
      const current = editable(sessionId, messageId, findMessage(db, messageId)?.role ?? 'user')
      const group = versionGroupOf(db, current.id)
      const versions = group ? listVersions(db, group) : []
      const target = versions[number - 1]
      if (!target) throw new AppError('not_found', `There is no version ${number} of this message.`)
      if (target.id !== current.id) {
        db.transaction((tx) => {
          setAsideFrom(tx, sessionId, current)
          restoreVersion(tx, sessionId, target.id)
        })
        emit('usage.changed', { sessionId })
        // The sidebar's preview shows the last message of the version in use.
        emit('sessions.changed', { sessionId, reason: 'updated' })
      }
      // Every version of the message sits after the path message before the first of them.
      return page(sessionId, { after: pathSeqBefore(db, sessionId, versions[0]!.seq) })
    },

    /**
     * Stores the user's message first (nothing typed is ever lost), then starts the reply, which
     * streams in through events. Returns both rows at once.
     */
    async send(
      sessionId: string,
      text: string,
      attached: readonly { hash: string; filename: string }[] = []
    ): Promise<{ message: ChatMessage; reply: ChatMessage }> {
      assertIdle(sessionId)
      const files = attachmentParts(sessionId, attached, text)
      const { message, reply, session } =
        text.length >= LONG_MESSAGE_CHARS
          ? await writeLongTurn(sessionId, text, files)
          : writeTurn(sessionId, text, undefined, files)
      publish(message)
      publish(reply)
      startReply(session, reply, countLater(message, session), message)
      return { message, reply }
    },

    /** Stores a message as it is, with no reply (import, replay); resolves once it is counted. */
    async append(
      sessionId: string,
      message: Pick<ChatMessage, 'role' | 'parts'> & { createdAt?: number }
    ): Promise<ChatMessage> {
      const session = sessions.get(sessionId)
      const stored = appendMessage(db, {
        id: ids(),
        sessionId,
        role: message.role,
        parts: message.parts,
        status: 'complete',
        createdAt: message.createdAt ?? clock.now()
      })
      await deps.reply?.messageWritten(stored, session)
      return stored
    },

    /** Runs the last reply of the chat again, after an error or a Stop. */
    retry(sessionId: string): { reply: ChatMessage } {
      assertIdle(sessionId)
      const session = sessions.get(sessionId)
      const last = lastMessage(db, sessionId)
      let reply: ChatMessage
      if (last?.role === 'assistant' && (last.status === 'error' || last.status === 'aborted')) {
        reply = updateMessage(db, last.id, {
          parts: [],
          status: 'streaming',
          error: null,
          inputTokens: null,
          outputTokens: null
        })!
      } else if (last?.role === 'user') {
        reply = emptyReply(db, sessionId)
      } else {
        throw new AppError('nothing_to_do', 'There is nothing to retry in this chat.')
      }
      publish(reply)
      startReply(session, reply)
      return { reply }
    },

    /** Stops the streaming reply; what arrived so far is kept, marked as stopped. */
    async stop(sessionId: string): Promise<{ stopped: boolean }> {
      const run = active.get(sessionId)
      if (!run) return { stopped: false }
      run.controller.abort()
      await run.done
      return { stopped: true }
    },

    message(id: string): ChatMessage | undefined {
      return findMessage(db, id)
    },

    isStreaming: (sessionId: string) => active.has(sessionId),

    /** Waits for every streaming reply (tests, shutdown). */
    async idle(): Promise<void> {
      await Promise.all([...active.values()].map((r) => r.done))
    },

    async close(): Promise<void> {
      for (const run of active.values()) run.controller.abort()
      await Promise.all([...active.values()].map((r) => r.done))
    }
  }
}
