import type { Snapshot } from '../../shared/domain/snapshot'
import type { SummarizerKind } from '../../shared/domain/snapshot'
import type { Strategy } from '../../shared/domain/session'
import type { App } from '../app'
import type { Budget } from '../engine/budget'
import type { ImportedMessage } from '../imports/openai-messages'
import type { ModelSpec } from '../models/catalog'
import { buildModelRequest } from '../services/conversation/request-builder'
import { resolveChatWindow } from '../../shared/domain/chat-settings'

export interface ReplayOptions {
  model: ModelSpec
  contextWindow?: number
  maxOutput?: number
  summarizer: SummarizerKind
  strategy?: Strategy
  title?: string
  onProgress?: (done: number, total: number) => void
}

export interface ReplayResult {
  sessionId: string
  messages: number
  requests: number
  compressions: number
  /** Requests whose context, before emergency trimming, did not fit the usable budget. */
  overflows: number
  /** Unsummarized messages left out of requests, over the whole replay (always 0 while compression works). */
  leftOut: number
  /** The largest request, in the provider's tokens (the budget's conversion, as the meter shows it). */
  maxContextTokens: number
  budget: Budget
  context: { tokens: number; messages: Array<{ role: string; content: string }> }
  snapshots: Snapshot[]
  /** The tiered strategy's topics and bulks at the end (from the active summary). */
  tiers?: { topics: number; bulks: number }
  seconds: number
}

function contentText(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content)
}

/**
 * Feeds a conversation one message at a time through the real path: each message is stored and
 * counted, and before every user message's request the auto-compression runs exactly as in a chat
 * (no replies are generated; the file's own assistant messages follow).
 */
export async function replayConversation(
  app: App,
  messages: readonly ImportedMessage[],
  options: ReplayOptions
): Promise<ReplayResult> {
  const started = performance.now()
  const { settings } = app.services
  // The replay's choices are never written to the user's settings: the window belongs to the replay
  // chat (so `distill context` on it later sees the same budget), the rest holds for this run only.
  const restore = settings.override({
    // The truncation baseline keeps as many recent messages as the budget allows (the plan caps the
    // retention at what fits), so it is compared with summaries at the same context size.
    ...(options.summarizer === 'truncate' ? { retentionTokens: 200_000 } : {})
  })
  try {
    return await replayWithSettings(app, messages, options, started)
  } finally {
    restore()
  }
}

async function replayWithSettings(
  app: App,
  messages: readonly ImportedMessage[],
  options: ReplayOptions,
  started: number
): Promise<ReplayResult> {
  const { sessions, chat, compression, usage } = app.services
  const { model } = options
  const session = sessions.create(options.title ?? 'Replay')
  const contextWindow = options.contextWindow ?? null
  const maxOutput =
    options.maxOutput === undefined
      ? null
      : resolveChatWindow({ contextWindow, maxOutput: options.maxOutput }, model).maxOutput
  // Auto-compression is what a replay measures: on for this chat, whatever the global setting says.
  sessions.update(session.id, {
    provider: model.provider,
    modelId: model.id,
    strategy: options.strategy ?? 'rolling',
    autoCompress: true,
    contextWindow,
    maxOutput
  })

  let requests = 0
  let compressions = 0
  let overflows = 0
  let leftOut = 0
  let maxContextTokens = 0
  for (const [i, message] of messages.entries()) {
    const saved = await chat.append(session.id, { role: message.role, parts: message.parts })
    if (message.role === 'user') {
      requests++
      const run = await compression.beforeRequest(session.id, saved.seq + 1, {
        summarizer: options.summarizer,
        waitForModel: true
      })
      if (run) compressions++
      const conv = usage.conversation(session.id, saved.seq + 1)
      if (conv.total() > conv.budget.countedUsable) overflows++
      const request = buildModelRequest(conv, app.services.recall.forRequest(conv))
      leftOut += request.leftOut?.messages ?? 0
      maxContextTokens = Math.max(maxContextTokens, conv.cost(request.context.tokens))
    }
    options.onProgress?.(i + 1, messages.length)
  }
  // The context the next request would carry.
  const conv = usage.conversation(session.id)
  const final = buildModelRequest(conv)
  const context = {
    tokens: conv.cost(final.context.tokens),
    messages: [
      ...(final.system ? [{ role: 'system', content: final.system }] : []),
      ...final.messages.map((m) => ({ role: m.role, content: contentText(m.content) }))
    ]
  }
  return {
    sessionId: session.id,
    messages: messages.length,
    requests,
    compressions,
    overflows,
    leftOut,
    // The final context is a context too (the next request's, before any compression it may need).
    maxContextTokens: Math.max(maxContextTokens, conv.cost(final.context.tokens)),
    budget: conv.budget,
    context,
    snapshots: compression.snapshots(session.id).filter((s) => s.kind === 'summary'),
    ...(conv.summary?.content.tiered
      ? {
          tiers: { topics: conv.summary.content.tiered.topics.length, bulks: conv.summary.content.tiered.bulks.length }
        }
      : {}),
    seconds: (performance.now() - started) / 1000
  }
}
