import type { SummarizerKind } from '../../../../shared/domain/snapshot'
import { truncateMiddle } from '../../../engine/truncate'
import type { EngineMessage } from '../../../engine/types'
import { createLanguageModel } from '../../../providers/create-language-model'
import { describeProviderError } from '../../../providers/describe-provider-error'
import { DEFAULT_STALL_MS, firstChunkTimeoutMs } from '../../../providers/provider-timing'
import type { RetryPolicy } from '../../../providers/stream-reply'
import { AppError } from '../../../../shared/app-error'
import { runDetailsJob } from '../../../workers/summary/details-job'
import type { ModelsService } from '../../settings/models-service'
import type { ProvidersService } from '../../settings/providers-service'
import type { Clock, Emit, Logger } from '../../service-deps'
import type { SettingsService } from '../../settings/settings-service'
import { summaryCostUsd } from './summary-cost'
import type { ModelSpec } from '../../../models/catalog'
import { usageCostUsd } from '../../../models/usage-cost'
import { inChatSummary, inChatSummaryRequest, type InChatSummaryResult } from './in-chat-summary'
import {
  extractiveSummary,
  fitsSummarizerWindow,
  llmSummary,
  replyTokens,
  SummarizerError,
  summaryRunSize,
  summaryTargetFor,
  truncationMarkerSummary,
  UNKNOWN_COUNT_SCALE,
  type SummarizerLimits
} from './summarizers'
import type { Conversation } from '../../conversation/conversation'
import type { ExtractiveThread } from '../../../workers/summary/extractive-thread'

/** A summary stopped by the user (or replaced): reported as cancelled, never as a failure. */
/** Between a summary and the part appended to it. */
export const APPEND_SEPARATOR = '\n\n'

export const cancelledError = () => new AppError('cancelled', 'The summary was cancelled.')

/** A summary this much over its target is re-made tighter once (FR-5.3), then cut to fit. */
const TOO_LONG = 1.2

export interface SummaryDeps {
  clock: Clock
  settings: SettingsService
  providers: ProvidersService
  models: ModelsService
  log: Logger
  emit: Emit
  stallMs?: number
  retry?: RetryPolicy
  /** Where extractive summaries are written off the main thread; inline when absent. */
  extractive?: ExtractiveThread
}

export interface SummaryRequest {
  previousSummary?: string
  messages: EngineMessage[]
  targetTokens: number
  focus?: string
  messagesIncluded: number
}

export interface WrittenSummary {
  text: string
  summarizer: string
  fellBack: boolean
  warnings: string[]
  /** About what the model summary cost, where the model's prices are known. */
  costUsd?: number | null
  /**
   * The model's input and output tokens for it: as the provider reported them (with what its prompt
   * cache served) when it was asked inside the chat's request, else estimated from the request.
   */
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number }
}

export interface WriteSummaryOptions extends SummaryDeps {
  conv: Conversation
  request: SummaryRequest
  /** The summarizer asked for; the settings' one when absent. */
  summarizer?: SummarizerKind
  /**
   * When the model fails: 'extractive' stands in with a warning (auto-compression, FR-5.1.1), or
   * 'throw' reports the failure (by hand, the user chose the model).
   */
  onModelFailure: 'extractive' | 'throw'
  signal: AbortSignal
  /**
   * The span is the chat request's oldest history: the model is asked inside the chat's own request
   * (in-chat-summary.ts) when it is the chat's model and the request fits, to merge the span with the
   * active summary or to write it alone for appending.
   */
  inChat?: { mode: 'merge' | 'append' }
}

/** The model that writes a chat's summaries: the one set in Settings, the model's own choice, or the chat's model. */
export function summarizationModelOf(settings: SettingsService, conv: Pick<Conversation, 'spec'>): string {
  // ||, not ??: a blank name (from a replay's override, say) means no choice, never a model called "".
  return settings.get().summarizationModel?.trim() || conv.spec.summarizationModel || conv.spec.id
}

/** What a model summary of a span takes, said before it starts; no requests when no model writes it. */
export interface SummaryEstimate {
  summaryRequests: number
  summarizationModel: string | null
  estimatedCostUsd: number | null
}

/**
 * The requests, model and cost of a manual summary with the settings' summarizer (the Summarize
 * dialog shows them before a long run): only the rolling strategy's llm summarizer sends any.
 */
export function summaryEstimate(
  { settings, providers, models }: Pick<SummaryDeps, 'settings' | 'providers' | 'models'>,
  conv: Conversation,
  request: Pick<SummaryRequest, 'previousSummary' | 'messages' | 'targetTokens'>
): SummaryEstimate {
  const { summarizer, strategy } = settings.forChat(conv.session)
  if (summarizer !== 'llm' || strategy !== 'rolling' || !providers.status(conv.spec.provider).ready) {
    return { summaryRequests: 0, summarizationModel: null, estimatedCostUsd: null }
  }
  const modelId = summarizationModelOf(settings, conv)
  const spec = summarizerSpecOf(models, conv, modelId)
  const targetTokens = summaryTargetFor(request.targetTokens, spec)
  const size = summaryRunSize(request.messages, limitsOf(spec, conv), {
    ...request,
    targetTokens,
    countTokens: (text) => conv.summaryTokensOf(text)
  })
  return {
    summaryRequests: size.requests,
    summarizationModel: modelId,
    estimatedCostUsd: summaryCostUsd(spec, size.inputTokens, size.outputTokens)
  }
}

/** The summarization model's spec: the chat's own (with the window set for the chat) when it is the chat's model. */
function summarizerSpecOf(models: ModelsService, conv: Conversation, modelId: string): ModelSpec {
  return modelId === conv.spec.id ? conv.spec : models.spec(conv.spec.provider, modelId)
}

/**
 * The summarization model's window and max output, and how its count relates to the chat's: the
 * prompt is counted with the chat's tokenizer, exact for the summarization model only when it is
 * the same one.
 */
function limitsOf(spec: SummarizerLimits & { tokenizer: string }, conv: Conversation): SummarizerLimits {
  return {
    contextWindow: spec.contextWindow,
    maxOutput: spec.maxOutput,
    countScale: spec.tokenizer === conv.spec.tokenizer ? 1 : UNKNOWN_COUNT_SCALE
  }
}

/** Writes the summary with whichever summarizer applies. */
export async function writeSummary(options: WriteSummaryOptions): Promise<WrittenSummary> {
  const { settings, providers, models, log, emit, conv, request, signal } = options
  const countTokens = (text: string) => conv.summaryTokensOf(text)
  const base = { ...request, countTokens }
  const kind = options.summarizer ?? settings.forChat(conv.session).summarizer
  if (kind === 'truncate')
    return {
      text: truncationMarkerSummary(base, request.messagesIncluded),
      summarizer: 'truncate',
      fellBack: false,
      warnings: []
    }
  const offline = (): Promise<string> | string =>
    options.extractive
      ? options.extractive.summarize(
          {
            spec: conv.spec,
            request: {
              previousSummary: request.previousSummary,
              messages: request.messages,
              targetTokens: request.targetTokens,
              focus: request.focus
            }
          },
          signal,
          // A long span is summarized in passes: the chat shows how far it is.
          (done, total) =>
            emit('compression.progress', { sessionId: conv.session.id, delta: '', part: { done, total } })
        )
      : extractiveSummary(base)
  if (kind === 'extractive') return { text: await offline(), summarizer: 'extractive', fellBack: false, warnings: [] }

  const provider = conv.spec.provider
  const modelId = summarizationModelOf(settings, conv)
  const fallback = async (why: string): Promise<WrittenSummary> => {
    if (options.onModelFailure === 'throw')
      throw new AppError('unavailable', `${why} Retry, or choose the offline extractive summarizer.`)
    log.warn(`Auto-compression falls back to the extractive summarizer: ${why}`)
    return {
      text: await offline(),
      summarizer: 'extractive',
      fellBack: true,
      warnings: [`${why} An offline extractive summary was used instead; the model will be tried again next time.`]
    }
  }
  if (!providers.status(provider).ready)
    return fallback(`No ${provider} key is set for the summarization model ${modelId}.`)
  const summarizerSpec = summarizerSpecOf(models, conv, modelId)
  const model = createLanguageModel(providers.connection(provider), modelId)
  const limits = limitsOf(summarizerSpec, conv)
  const timing = {
    signal,
    stallMs: options.stallMs ?? DEFAULT_STALL_MS,
    firstChunkMs: options.stallMs ?? firstChunkTimeoutMs(provider, 'summary'),
    retry: options.retry,
    now: () => options.clock.now()
  }
  const onDelta = (delta: string) => emit('compression.progress', { sessionId: conv.session.id, delta })
  // Asked inside the chat's request: only with the chat's own model (its cache) and within its window.
  const inChatFor = (targetTokens: number) => {
    if (!options.inChat || modelId !== conv.spec.id) return undefined
    const asked = inChatSummaryRequest(conv, { span: request.messages, mode: options.inChat.mode, targetTokens })
    return asked && fitsSummarizerWindow(limits, conv.cost(asked.countedTokens), targetTokens) ? asked : undefined
  }
  const reported: InChatSummaryResult[] = []
  // A summary the summarization model can write: within its window and its max output.
  const run = async (wanted: number, targetTokens = summaryTargetFor(wanted, summarizerSpec)) => {
    const inChat = inChatFor(targetTokens)
    if (inChat) {
      const result = await inChatSummary(inChat, {
        ...timing,
        model,
        cache: {
          provider,
          enabled: settings.get().promptCaching[provider] !== false,
          sessionId: conv.session.id,
          extendedRetention: conv.spec.extendedCacheRetention
        },
        maxOutputTokens: replyTokens(targetTokens, limits),
        onDelta
      })
      reported.push(result)
      return result.text
    }
    return llmSummary({
      ...base,
      ...timing,
      targetTokens,
      model,
      limits,
      onDelta,
      onPart: (done, total) =>
        emit('compression.progress', { sessionId: conv.session.id, delta: '', part: { done, total } })
    })
  }
  // Estimated from stored counts: every part's prompt, transcript and the summary it folded in.
  const estimatedUsage = (text: string) => {
    const targetTokens = summaryTargetFor(request.targetTokens, summarizerSpec)
    const size = summaryRunSize(request.messages, limits, { ...base, targetTokens })
    const usage = { inputTokens: size.inputTokens, outputTokens: size.outputTokens - targetTokens + countTokens(text) }
    return { usage, costUsd: summaryCostUsd(summarizerSpec, usage.inputTokens, usage.outputTokens) }
  }
  try {
    let text = await run(request.targetTokens)
    const warnings: string[] = []
    if (countTokens(text) > request.targetTokens * TOO_LONG) {
      // FR-5.3: re-summarize with a higher compression ratio, then cut if still too long.
      text = await run(Math.floor(request.targetTokens * 0.6))
      if (countTokens(text) > request.targetTokens) {
        text = truncateMiddle(text, request.targetTokens, countTokens)
        warnings.push('The summary came out too long and was shortened in the middle.')
      }
    }
    // The names, numbers and dates the model left out come back as a short Details list, within budget.
    // Every sentence of the span is read and checked: off the main thread where there is one.
    const details = {
      spec: conv.spec,
      summary: text,
      targetTokens: request.targetTokens,
      previousSummary: request.previousSummary,
      messages: request.messages
    }
    text = options.extractive
      ? await options.extractive.details(details, signal)
      : runDetailsJob({ ...details, messages: request.messages.map((m) => ({ role: m.role, text: m.text })) })
    const { usage, costUsd } = reportedUsage(reported, summarizerSpec) ?? estimatedUsage(text)
    return { text, summarizer: modelId, fellBack: false, warnings, costUsd, usage }
  } catch (err) {
    if (signal.aborted) throw cancelledError()
    if (err instanceof SummarizerError && err.cause !== undefined) {
      return fallback(describeProviderError(err.cause, provider, { now: options.clock.now() }).message)
    }
    return fallback(err instanceof Error ? err.message : String(err))
  }
}

/** What the provider reported for summaries asked inside the chat, summed; undefined when it said nothing. */
function reportedUsage(
  reported: readonly InChatSummaryResult[],
  spec: ModelSpec
): Pick<WrittenSummary, 'usage' | 'costUsd'> | undefined {
  if (reported.length === 0 || reported.some((r) => r.inputTokens === undefined)) return undefined
  const sum = (pick: (r: InChatSummaryResult) => number | undefined) => reported.reduce((n, r) => n + (pick(r) ?? 0), 0)
  const usage = {
    inputTokens: sum((r) => r.inputTokens),
    outputTokens: sum((r) => r.outputTokens),
    cacheReadTokens: sum((r) => r.cacheReadTokens),
    cacheWriteTokens: sum((r) => r.cacheWriteTokens)
  }
  return { usage, costUsd: usageCostUsd(spec, usage) }
}
