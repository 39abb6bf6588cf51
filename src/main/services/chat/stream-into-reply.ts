import type { ChatMessage } from '../../../shared/domain/chat-message'
import type { ProviderId } from '../../../shared/domain/provider'
import type { Session } from '../../../shared/domain/session'
import { updateMessage, updateMessageBesideParts } from '../../db/repositories/messages/messages-repo'
import { createLanguageModel } from '../../providers/create-language-model'
import { contextOverflow } from '../../providers/context-overflow'
import { describeProviderError } from '../../providers/describe-provider-error'
import { withPromptCache } from '../../providers/prompt-cache'
import { streamReply } from '../../providers/stream-reply'
import type { ServiceDeps } from '../service-deps'
import type { ChatServiceOptions } from './chat-service-options'
import type { PreparedRequest } from '../next-request/prepared-request'

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** How often a streaming reply is written to disk, so a crash loses at most this much. */
const PERSIST_EVERY_MS = 750

export type ReplyDeps = ServiceDeps &
  Omit<ChatServiceOptions, 'stallMs'> & {
    stallMs: number
    /** Emits a changed message to the window (with its version number). */
    publish(message: ChatMessage): ChatMessage
  }

/**
 * One reply, from its empty row to its final state: the request is prepared (compressed if needed,
 * by the one budget model, with recall), what it had to cut or leave out is said on the chat's
 * messages, attachments are read in, the provider streams into the row (written every
 * PERSIST_EVERY_MS), and the outcome (complete with usage, stopped, or the provider's error in
 * words) is stored.
 */
export async function streamIntoReply(
  deps: ReplyDeps,
  turn: {
    session: Session
    reply: ChatMessage
    provider: ProviderId
    modelId: string
    signal: AbortSignal
    /** The message this reply answers, counted and stored (a turn after it was written). */
    written?: Promise<void>
    /** That message as it was written, when the caller holds it: its parts need not be read back. */
    message?: ChatMessage
  }
): Promise<void> {
  const { db, clock, emit, log, providers, sessions, stallMs, publish } = deps
  const { session, reply, provider, modelId } = turn
  const controller = { signal: turn.signal }
  let text = ''
  let lastPersist = clock.now()
  /** Says what the request had to cut or leave out, and streams the provider's reply to it. */
  async function send(request: PreparedRequest) {
    await nextTurn()
    // A message larger than the window allows goes out cut in the middle: the chat says so.
    const cut = request.inputCut
    if (cut) {
      const held = turn.message?.id === cut.id ? turn.message : undefined
      const shortened = held
        ? updateMessageBesideParts(db, cut.id, held.parts, { sentCutTokens: cut.tokens })
        : updateMessage(db, cut.id, { sentCutTokens: cut.tokens })
      if (shortened) publish(shortened)
    }
    // Older messages that did not fit and no summary holds: the reply says so, never silently.
    const leftOut = request.leftOut
    if (leftOut) {
      const noted = updateMessage(db, reply.id, { sentWithoutMessages: leftOut.messages })
      if (noted) publish(noted)
      log.warn(`A request in chat ${session.id} went out without its ${leftOut.messages} oldest unsummarized messages`)
    }
    // The notes (a message of a million characters published again), the files read in and the
    // request handed to the provider each take a turn of their own.
    if (cut || leftOut) await nextTurn()
    const messages = deps.attachments
      ? await deps.attachments.resolve(request.messages, {
          provider,
          modelId,
          sessionId: session.id,
          cutoffSeq: deps.reply?.summaryState(session.id).cutoffSeq ?? 0
        })
      : request.messages
    if (controller.signal.aborted) return { outcome: 'aborted', text: '' } as const
    await nextTurn()
    if (controller.signal.aborted) return { outcome: 'aborted', text: '' } as const
    // The provider's prompt cache serves what repeats the previous request: say where it ends.
    const cached = withPromptCache(
      {
        system: request.system,
        messages,
        stableMessages: request.stableMessages,
        recalled: request.recalled,
        ...(request.summarySplits ? { summarySplits: request.summarySplits } : {})
      },
      {
        provider,
        enabled: deps.settings.get().promptCaching[provider] !== false,
        sessionId: session.id,
        extendedRetention: request.extendedCacheRetention
      }
    )
    return streamReply({
      model: createLanguageModel(providers.connection(provider), modelId),
      ...cached,
      // The reply gets what the budget reserved for it, so request + reply fit the window.
      ...(request.maxOutputTokens ? { maxOutputTokens: request.maxOutputTokens } : {}),
      signal: controller.signal,
      stallMs,
      // Local servers may read a long prompt for minutes before the first token: a setting.
      firstChunkMs: deps.firstChunkMs ?? deps.settings.get().firstChunkTimeoutSeconds * 1000,
      retry: deps.retry,
      now: () => clock.now(),
      onRetry: ({ attempt, delayMs }) =>
        log.info(`Retrying ${provider}/${modelId} (attempt ${attempt}) in ${delayMs} ms`),
      onDelta: (delta) => {
        text += delta
        emit('chat.delta', { sessionId: session.id, messageId: reply.id, delta })
        if (clock.now() - lastPersist >= PERSIST_EVERY_MS) {
          lastPersist = clock.now()
          updateMessage(db, reply.id, { parts: [{ type: 'text', text }] })
        }
      }
    })
  }
  // Each stage of a large send (the turn written, the request prepared, its notes stored) is a
  // stretch of synchronous SQLite work: other requests get their turn in between.
  await turn.written
  await nextTurn()
  let request = await deps.prepareRequest(session.id, reply.seq)
  let result = await send(request)
  // A provider that counts the request longer than its window refuses it before any word: its own
  // count teaches the calibration, and the request is built and sent once more within it.
  const overflow = result.outcome === 'error' && !result.text ? contextOverflow(result.error) : undefined
  if (overflow && !controller.signal.aborted && deps.reply?.refused(session, request.sentTokens, overflow)) {
    log.info(`${provider}/${modelId} counted the request past its window; building it again within it`)
    request = await deps.prepareRequest(session.id, reply.seq)
    result = await send(request)
  }
  const parts = result.text ? [{ type: 'text' as const, text: result.text }] : []
  let final: ChatMessage
  if (result.outcome === 'complete') {
    final = updateMessage(db, reply.id, {
      parts,
      status: 'complete',
      error: null,
      inputTokens: result.inputTokens ?? null,
      outputTokens: result.outputTokens ?? null,
      cacheReadTokens: result.cacheReadTokens ?? null,
      cacheWriteTokens: result.cacheWriteTokens ?? null
    })!
    deps.reply?.reported(final, session, request.sentTokens)
  } else if (result.outcome === 'aborted') {
    final = updateMessage(db, reply.id, { parts, status: 'aborted', error: null })!
  } else {
    const error = describeProviderError(result.error, provider, { stalled: result.stalled, now: clock.now() })
    log.warn(
      `Reply failed (${provider}/${modelId}): ${error.code}`,
      result.error instanceof Error ? result.error.message : result.error
    )
    final = updateMessage(db, reply.id, { parts, status: 'error', error })!
  }
  publish(final)
  const counted = deps.reply?.messageWritten(final, session)
  sessions.touch(session.id)
  if (result.outcome !== 'complete') return
  // What follows a reply (a title, a summary due or written ahead) reads the chat again, once the
  // reply's count is stored (read before, it looked never counted and started a recount) and in a
  // turn of its own.
  await counted
  await nextTurn()
  deps.reply?.completed(final, session)
}
