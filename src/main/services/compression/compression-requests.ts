import { restoresSnapshotId, type Snapshot } from '../../../shared/domain/snapshot'
import { cascadeBase, insertSummary, topicBoundaries } from '../../db/repositories/snapshots-repo'
import {
  EXPECTED_SUMMARY_RATIO,
  planCompression,
  type CompressionPlan
} from '../../engine/strategies/rolling/plan-compression'
import { type EngineMessage, totalTokens } from '../../engine/types'
import type { RetryPolicy } from '../../providers/stream-reply'
import type { ModelsService } from '../settings/models-service'
import type { ProvidersService } from '../settings/providers-service'
import type { ServiceDeps } from '../service-deps'
import { tierSnapshotRows } from './tier-snapshots'
import { planStrategyRun, type StrategyAsk } from './strategy-run'
import { APPEND_SEPARATOR, writeSummary } from './summaries/write-summary'
import { summarizableText } from '../../../shared/domain/user-notes'
import { reselectBase } from './summaries/reselect-base'
import { createBacklogRun } from './backlog-run'
import type { RunOptions, RunRequest } from './compression-run'
import type { SettingsService } from '../settings/settings-service'
import type { Conversation } from '../conversation/conversation'
import type { UsageService } from '../conversation/usage-service'
import type { ExtractiveThread } from '../../workers/summary/extractive-thread'
import { runStrategyJob, type StrategyJob } from '../../workers/summary/strategy-job'

const APPEND_SEPARATOR_TOKENS = 2
/** An appended part is written to at least this many tokens (a shorter one would say little). */
const MIN_SEGMENT_TOKENS = 150
/** An appended part may condense what it covers to this share at the tightest. */
const APPEND_MIN_RATIO = 0.15
/** A model summary written again (or first) takes this share of its room: the rest is for appended parts. */
export const CONDENSE_SHARE = 0.6

export type { RunOptions } from './compression-run'

/** A strategy run on this thread (no worker given): the messages keep their lazily read text. */
function inlineStrategyJob(ask: StrategyAsk, conv: Conversation): StrategyJob {
  return { ...ask, spec: conv.spec, messages: ask.messages }
}

export type RunRequestDeps = Pick<ServiceDeps, 'db' | 'clock' | 'ids' | 'emit' | 'log'> & {
  usage: UsageService
  settings: SettingsService
  providers: ProvidersService
  models: ModelsService
  stallMs?: number
  retry?: RetryPolicy
  /** Writes extractive summaries off the main thread. */
  extractive?: ExtractiveThread
}

/**
 * What each kind of compression run summarizes and stores (DESIGN §5): the rolling strategy, the
 * tiered and importance strategies, and the active summary written again. The service runs them.
 */
export function createRunRequests(deps: RunRequestDeps) {
  const { db, clock, ids, emit, log, usage, settings, providers, models } = deps

  function settingsFor() {
    const s = settings.get()
    return { thresholdPercent: s.thresholdPercent, retentionTokens: s.retentionTokens, minimumTokens: s.minimumTokens }
  }

  /** The active history split into what may be compressed and the pending input (before a request). */
  function split(conv: Conversation, beforeSeq?: number): { history: EngineMessage[]; pending?: EngineMessage } {
    const pending = beforeSeq !== undefined ? conv.pending : undefined
    return { history: pending ? conv.history.slice(0, -1) : conv.history, pending }
  }

  function planFor(
    conv: Conversation,
    options: RunOptions,
    summaryTokensCap?: number,
    read?: { history: EngineMessage[]; pending?: EngineMessage }
  ): CompressionPlan & { pending?: EngineMessage } {
    const { history, pending } = read ?? split(conv, options.beforeSeq)
    const summary = conv.summary
      ? {
          id: conv.summary.id,
          text: conv.summary.content.summaryText,
          tokens: conv.summaryTokens,
          cutoffSeq: conv.summary.cutoffSeq,
          cutoffMessageId: conv.summary.messageCutoffId ?? '',
          firstMessageId: conv.summary.content.messageRange.firstMessageId,
          messagesIncluded: conv.summary.content.messagesIncluded,
          originalTokens: conv.summary.content.originalTokenCount
        }
      : undefined
    const plan = planCompression({
      messages: history,
      summary,
      // Pins stay whatever is summarized: fixed, like the system prompt.
      systemTokens: conv.systemTokens + conv.pinnedTokens,
      pendingInputTokens: pending?.tokens ?? 0,
      overheadTokens: conv.overheadTokens,
      budget: conv.budget,
      settings: settingsFor(),
      manual: options.type !== 'auto',
      retentionOverride: options.retentionOverride,
      summaryTokensCap
    })
    return { ...plan, pending }
  }

  const summaryDeps = {
    clock,
    settings,
    providers,
    models,
    log,
    emit,
    stallMs: deps.stallMs,
    retry: deps.retry,
    extractive: deps.extractive
  }

  /**
   * The tiered and importance strategies (DESIGN §5) decide over the whole stored history, locally;
   * their result is stored like any summary, so context, undo and the UI work the same.
   */
  async function strategyRun(
    conv: Conversation,
    strategy: 'tiered' | 'importance',
    options: RunOptions
  ): Promise<RunRequest | undefined> {
    const sessionId = conv.session.id
    // Not `split`: that reads the history after the summary at once, and the strategy reads it all in pages.
    const pending = options.beforeSeq !== undefined ? conv.pending : undefined
    const upto = options.beforeSeq === undefined ? Infinity : options.beforeSeq - 1
    const run = await planStrategyRun({
      conv,
      strategy,
      all: (await usage.engineMessagesInPages(sessionId, 0, upto)).filter((m) => m.id !== pending?.id),
      pending,
      type: options.type === 'auto' ? 'auto' : 'manual',
      retentionOverride: options.retentionOverride,
      retentionTokens: settings.get().retentionTokens,
      focus: options.focus,
      userBoundaries: topicBoundaries(db, sessionId),
      decide: (ask) =>
        deps.extractive
          ? deps.extractive.strategy({ ...ask, spec: conv.spec })
          : Promise.resolve(runStrategyJob(inlineStrategyJob(ask, conv)))
    })
    if (!run) return undefined
    const { summaryText, summarizer: _s, warnings, ...content } = run.content
    return {
      conv,
      type: options.type,
      messages: run.covered.length,
      tokensBefore: run.content.contextTokensBefore,
      summarize: () => ({ text: summaryText, summarizer: 'extractive', fellBack: false, warnings: [] }),
      content: {
        ...content,
        ...(conv.summary?.content.userNotes ? { userNotes: conv.summary.content.userNotes } : {})
      },
      warnings,
      cutoffId: run.covered.at(-1)!.id,
      coveredTokens: run.coveredTokens,
      extra: (tx, summaryId) => {
        for (const row of tierSnapshotRows(run.outcome, run.all, summaryId, new Date(clock.now()).toISOString())) {
          insertSummary(tx, { ...row, id: ids(), sessionId, createdAt: clock.now() })
        }
      }
    }
  }

  /**
   * How an automatic model summary grows (DESIGN §5, issue 34): while the summary has room, the new
   * span's summary is appended to it and the text before stays word for word, so the request after
   * the compression repeats everything up to the new part and a provider's prompt cache serves it;
   * when it has no room left, it is written again from the previous one plus the span (the
   * cascade), to CONDENSE_SHARE of its room, which leaves room for the next appends.
   */
  function appendPlan(
    prev: Snapshot | undefined,
    prevTokens: number,
    targetTokens: number,
    spanTokens: number,
    growing: boolean
  ): { targetTokens: number; append?: { before: string; at: number[] } } {
    if (!growing) return { targetTokens }
    const condensed = Math.max(MIN_SEGMENT_TOKENS, Math.floor(targetTokens * CONDENSE_SHARE))
    const appendable =
      prev &&
      prev.content.strategy === 'rolling' &&
      !prev.content.userNotes &&
      !prev.content.editedByUser &&
      !prev.content.tiered &&
      prev.content.summarizer !== 'extractive' &&
      prev.content.summarizer !== 'truncate'
    if (!appendable) return { targetTokens: condensed }
    // The new part is written to the usual ratio of what it covers, or as tightly as the room allows,
    // but no tighter than APPEND_MIN_RATIO: then the whole summary is written again instead.
    const wanted = Math.max(MIN_SEGMENT_TOKENS, Math.ceil(spanTokens * APPEND_MIN_RATIO))
    const room = targetTokens - prevTokens - APPEND_SEPARATOR_TOKENS
    if (room < wanted) return { targetTokens: condensed }
    const before = prev.content.summaryText
    return {
      targetTokens: Math.min(room, Math.max(wanted, Math.ceil(spanTokens * EXPECTED_SUMMARY_RATIO))),
      append: { before, at: [...(prev.content.appendedAt ?? []), before.length] }
    }
  }

  /** The rolling strategy (and the truncation baseline): the plan's messages plus the previous summary. */
  function rollingRun(conv: Conversation, options: RunOptions): RunRequest | undefined {
    const plan = planFor(conv, options)
    if (plan.empty) return undefined
    const messagesIncluded = (conv.summary?.content.messagesIncluded ?? 0) + plan.toSummarize.length
    const first = plan.toSummarize[0]!
    const last = plan.toSummarize.at(-1)!
    const tokensBefore = conv.contextTokens()
    const summarizer = options.modelOnly ? 'llm' : (options.summarizer ?? settings.get().summarizer)
    const spanTokens = totalTokens(plan.toSummarize)
    // The offline summarizer chooses again from the messages of recent cascades (reselect-base.ts).
    // Not over a backlog: its base's span is the whole imported history.
    const again =
      summarizer === 'extractive' && !options.focus?.trim() && !conv.summary?.content.backlog
        ? reselectBase(conv.summary, plan.toSummarize.length, (s) => cascadeBase(db, s))
        : undefined
    const base = again ? again.base : conv.summary
    // Automatic model summaries grow by appending (not a summary the user asked for, with a focus or not).
    const growth = appendPlan(
      conv.summary ?? undefined,
      conv.summaryTokens,
      plan.targetSummaryTokens,
      spanTokens,
      summarizer === 'llm' && options.type === 'auto' && !options.focus?.trim()
    )
    return {
      conv,
      type: options.type,
      messages: plan.toSummarize.length,
      tokensBefore,
      summarize: async (signal) => {
        const reread =
          again && conv.summary
            ? await usage.engineMessagesInPages(conv.session.id, again.base?.cutoffSeq ?? 0, conv.summary.cutoffSeq)
            : []
        const written = await writeSummary({
          ...summaryDeps,
          conv,
          request: {
            // Appended: the model summarizes the new span alone; the summary before it stays as it is.
            // The user's notes are carried as they are (the commit adds them), not condensed.
            previousSummary: base && !growth.append ? summarizableText(base.content) : undefined,
            messages: [...reread, ...plan.toSummarize],
            targetTokens: growth.targetTokens,
            focus: options.focus,
            messagesIncluded
          },
          summarizer,
          onModelFailure: options.type === 'auto' && !options.modelOnly ? 'extractive' : 'throw',
          // The span is the chat request's oldest history: the model may be asked inside that request.
          ...(!again && !options.focus?.trim() ? { inChat: { mode: growth.append ? 'append' : 'merge' } } : {}),
          signal
        })
        return growth.append ? { ...written, text: growth.append.before + APPEND_SEPARATOR + written.text } : written
      },
      content: {
        messageRange: {
          firstMessageId: conv.summary?.content.messageRange.firstMessageId ?? first.id,
          lastMessageId: last.id
        },
        compressionType: options.type === 'auto' ? 'auto' : 'manual',
        originalTokenCount: (conv.summary?.content.originalTokenCount ?? 0) + totalTokens(plan.toSummarize),
        messagesIncluded,
        strategy: 'rolling',
        restoresSnapshotId: conv.summary?.id ?? null,
        baseSnapshotId: base?.id ?? null,
        focus: options.focus?.trim() || null,
        retentionTokens: plan.retentionTokens,
        contextTokensBefore: tokensBefore,
        ...(conv.summary?.content.userNotes ? { userNotes: conv.summary.content.userNotes } : {}),
        ...(growth.append ? { appendedAt: growth.append.at } : {}),
        // Still pending: the whole history's summary is written again from before the backlog.
        ...(conv.summary?.content.backlog ? { backlog: conv.summary.content.backlog } : {})
      },
      warnings: plan.warnings,
      cutoffId: last.id,
      coveredTokens: spanTokens,
      span: { firstSeq: first.seq, lastSeq: last.seq, tokens: spanTokens },
      ...(options.background ? { background: options.background } : {})
    }
  }

  /**
   * The active summary's range again: from the summary it was cascaded from, not the one it replaced.
   * `upgrade`: the model summary that replaces a quick one, as if the quick one had never been
   * (Undo goes back to what was before it); 'offline': the whole span's offline summary that replaces
   * a quick one which read only the newest part of a backlog. `from`: another base, summarized with the offline
   * summarizer (an accepted draft that covers less than the active summary: the rest is folded in).
   */
  async function regenerateRun(
    conv: Conversation,
    active: Snapshot,
    focus?: string,
    upgrade: boolean | 'offline' = false,
    from?: Snapshot
  ): Promise<RunRequest> {
    let base = from ?? cascadeBase(db, active)
    // The whole history's summary starts before the backlog (later summaries may cascade from its quick one).
    for (let guard = 0; upgrade === 'offline' && base?.content.backlog && guard < 1000; guard++)
      base = cascadeBase(db, base)
    const messages = await usage.engineMessagesInPages(conv.session.id, base?.cutoffSeq ?? 0, active.cutoffSeq)
    await conv.loadHistory()
    const target = Math.max(active.tokenCount, planFor(conv, { type: 'manual' }).targetSummaryTokens)
    // The model summary that replaces a quick one grows from the summary before it, as a prepared one would.
    const growth = appendPlan(
      base,
      base ? conv.summaryTokensOf(base.content.summaryText) : 0,
      target,
      totalTokens(messages),
      upgrade === true && !focus?.trim() && !active.content.focus
    )
    const {
      summaryText: _text,
      summarizer: _summarizer,
      warnings: _warnings,
      compressionTimestamp: _t,
      summaryTokenCount: _s,
      contextTokensAfter: _a,
      previousSnapshotId: _p,
      userNotes: _notes,
      editedByUser: _edited,
      // Written again whole: no part of it is an earlier summary word for word any more.
      appendedAt: _appended,
      modelUsage: _usage,
      // The whole span is read this time.
      backlog: _backlog,
      ...kept
    } = active.content
    return {
      conv,
      type: upgrade ? 'auto' : 'regenerate',
      messages: messages.length,
      tokensBefore: upgrade ? active.content.contextTokensBefore : active.content.contextTokensAfter,
      summarize: async (signal) => {
        const written = await writeSummary({
          ...summaryDeps,
          conv,
          request: {
            previousSummary: base && !growth.append ? summarizableText(base.content) : undefined,
            messages,
            targetTokens: growth.targetTokens,
            focus: focus ?? active.content.focus ?? undefined,
            messagesIncluded: active.content.messagesIncluded
          },
          ...(upgrade === true
            ? { summarizer: 'llm' as const }
            : upgrade || from
              ? { summarizer: 'extractive' as const }
              : {}),
          onModelFailure: 'throw',
          signal
        })
        return growth.append ? { ...written, text: growth.append.before + APPEND_SEPARATOR + written.text } : written
      },
      content: {
        ...kept,
        ...(growth.append ? { appendedAt: growth.append.at } : {}),
        focus: focus?.trim() || active.content.focus,
        restoresSnapshotId: upgrade ? restoresSnapshotId(active.content) : active.id,
        baseSnapshotId: base?.id ?? null,
        // Its own edit is what a regenerate replaces; the notes it carried from its base stay.
        ...(base?.content.userNotes ? { userNotes: base.content.userNotes } : {})
      },
      warnings: [],
      cutoffId: active.messageCutoffId!,
      // The same messages as the active summary: only the summary's text changes.
      coveredTokens: 0,
      ...(upgrade ? { background: 'replaced' as const } : {}),
      ...(upgrade === 'offline' && active.content.backlog ? { backlogDone: active.content.backlog.messages } : {})
    }
  }

  const backlogRun = createBacklogRun({ db, usage, settings, planFor, summaryDeps })

  return { settingsFor, planFor, strategyRun, rollingRun, backlogRun, regenerateRun }
}
