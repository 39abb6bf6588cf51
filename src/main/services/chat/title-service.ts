import type { ChatMessage } from '../../../shared/domain/chat-message'
import { messageText } from '../../../shared/domain/chat-message'
import type { Session } from '../../../shared/domain/session'
import { openingMessages, type OpeningMessage } from '../../db/repositories/messages/opening-messages-repo'
import { createLanguageModel } from '../../providers/create-language-model'
import { streamReply } from '../../providers/stream-reply'
import { titleFromText } from './title-from-text'
import type { ModelsService } from '../settings/models-service'
import type { ProvidersService } from '../settings/providers-service'
import type { ServiceDeps } from '../service-deps'
import type { SessionsService } from '../sessions/sessions-service'
import type { SettingsService } from '../settings/settings-service'

/** The fake provider recognizes title requests by this first sentence (e2e/fake-provider/title-requests.ts). */
export const TITLE_SYSTEM_PROMPT = [
  'Write a short title for this chat.',
  'Reply with the title only: 2 to 6 words in the language of the chat, no quotes, no Markdown, no final full stop.'
].join(' ')

/** How much of each message the title request carries. */
const EXCERPT_CHARS = 1200
const DEFAULT_TIMEOUT_MS = 15_000

/** The model's answer as a title: one line, no quotes, label, Markdown or final full stop; empty when unusable. */
export function cleanTitle(raw: string): string {
  const line =
    raw
      .trim()
      .split('\n')
      .find((l) => l.trim() !== '') ?? ''
  const cleaned = line
    .replace(/^\s*(#+\s*|title\s*:\s*)/i, '')
    .replace(/[*_`]+/g, '')
    .replace(/^["'“”‘’«»\s]+|["'“”‘’«»\s]+$/g, '')
    .replace(/[.。]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
  return cleaned === '' ? '' : titleFromText(cleaned)
}

export type TitleService = ReturnType<typeof createTitleService>

/**
 * Names a chat after its first reply with a short generated title, through the chat's provider and
 * the summarization model. Until then, and whenever that fails (no key, timeout, an error, an empty
 * answer), the chat keeps the title its first message gave it. A title the user chose is never replaced.
 */
export function createTitleService(
  deps: ServiceDeps & {
    sessions: SessionsService
    providers: ProvidersService
    settings: SettingsService
    models: ModelsService
    timeoutMs?: number
  }
) {
  const { db, log, clock, sessions, providers, settings, models } = deps
  const running = new Set<Promise<void>>()
  const controller = new AbortController()

  async function generate(
    session: Session,
    first: OpeningMessage,
    reply: ChatMessage,
    automatic: string
  ): Promise<void> {
    const { provider, modelId: chatModel } = settings.forChat(session)
    if (!providers.status(provider).ready) return
    const modelId =
      settings.get().summarizationModel?.trim() || models.spec(provider, chatModel).summarizationModel || chatModel
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(deps.timeoutMs ?? DEFAULT_TIMEOUT_MS)])
    const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const result = await streamReply({
      model: createLanguageModel(providers.connection(provider), modelId),
      system: TITLE_SYSTEM_PROMPT,
      messages: [
        {
          role: 'user',
          content: `Title this chat.\n\nUser: ${first.excerpt}\n\nAssistant: ${messageText(reply.parts).slice(0, EXCERPT_CHARS)}`
        }
      ],
      maxOutputTokens: 32,
      signal,
      stallMs: timeoutMs,
      now: () => clock.now(),
      retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 },
      onDelta: () => {}
    })
    if (result.outcome !== 'complete') {
      log.info(
        `No generated title for a chat (${result.outcome === 'error' ? 'the model failed' : 'timed out or closing'}); it keeps its first-message title.`
      )
      return
    }
    const title = cleanTitle(result.text)
    if (title) sessions.retitle(session.id, automatic, title)
  }

  return {
    /**
     * Called when a reply completes; acts only on a chat's first reply, and only while the chat
     * still has the title its first message gave it.
     */
    afterReply(reply: ChatMessage, session: Session): Promise<void> {
      // A first reply is among the first few rows (after a failed attempt or two at most).
      if (reply.role !== 'assistant' || reply.status !== 'complete' || reply.seq > 6) return Promise.resolve()
      const run: Promise<void> = (async () => {
        // In a turn of its own: the rest of what follows a reply (compression's check) runs first.
        await new Promise((resolve) => setImmediate(resolve))
        if (controller.signal.aborted) return
        const before = openingMessages(db, session.id, reply.seq, EXCERPT_CHARS)
        if (before.some((m) => m.role === 'assistant' && m.status === 'complete')) return
        const first = before.find((m) => m.role === 'user')
        if (!first) return
        const automatic = titleFromText(first.excerpt)
        const current = sessions.get(session.id)
        if (current.title !== automatic) return
        await generate(current, first, reply, automatic)
      })()
        // The chat was deleted meanwhile, or the model failed: the reply itself is unaffected.
        .catch((err: unknown) => log.warn('Generating a chat title failed', err))
        .finally(() => running.delete(run))
      running.add(run)
      return run
    },

    /** Waits for title requests in flight (tests). */
    async idle(): Promise<void> {
      await Promise.all(running)
    },

    /** Stops title requests in flight (shutdown) and waits for them. */
    async close(): Promise<void> {
      controller.abort()
      await Promise.all(running)
    }
  }
}
