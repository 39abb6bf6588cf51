import type { ProviderId } from './provider'
import type { Session, Strategy } from './session'
import { thresholdSetting, type Settings, type ThresholdSource } from './settings'

/**
 * What a chat actually uses: its own choice where it made one, else the global setting. The one
 * place both processes resolve a chat's settings (the main process for requests and compression,
 * the renderer for what it shows), so a default is never written twice.
 */
export interface ChatSettings {
  provider: ProviderId
  modelId: string
  strategy: Strategy
  autoCompress: boolean
  recall: boolean
  /** A summary waits as a draft for the user's review before it replaces messages. */
  reviewSummaries: boolean
  summarizer: Settings['summarizer']
  /** The threshold set for the chat, its model or globally, and where (before lowering for estimated counts). */
  threshold: { percent: number; source: ThresholdSource }
  /** The chat's own window and reply reserve; null = the model's. */
  contextWindow: number | null
  maxOutput: number | null
  /** Which of the chat's choices are its own rather than inherited. */
  own: { strategy: boolean; autoCompress: boolean; recall: boolean; reviewSummaries: boolean }
}

export type ChatSettingsSource = Pick<
  Settings,
  | 'defaultProvider'
  | 'defaultModel'
  | 'strategy'
  | 'autoCompress'
  | 'recallEnabled'
  | 'reviewSummaries'
  | 'summarizer'
  | 'thresholdPercent'
  | 'modelThresholds'
>

/** The model a chat uses: its own choice, else the default (a record of any age: an old export too). */
export function resolveChatModel(
  session: Pick<Session, 'provider' | 'modelId'>,
  settings: Pick<Settings, 'defaultProvider' | 'defaultModel'>
): { provider: ProviderId; modelId: string } {
  return { provider: session.provider ?? settings.defaultProvider, modelId: session.modelId ?? settings.defaultModel }
}

/** The window and reply reserve a chat works with: its own where it set them, else its model's. */
export interface ChatWindow {
  contextWindow: number
  /** Never more than half the window, or nothing would be left for the history. */
  maxOutput: number
  /** The chat set its window itself (a replay, a local server's smaller load). */
  own: boolean
}

/** The window in force for a chat on `model` (the one place its fallbacks are written). */
export function resolveChatWindow(
  chat: { contextWindow: number | null; maxOutput: number | null },
  model: { contextWindow: number; maxOutput: number }
): ChatWindow {
  const contextWindow = chat.contextWindow ?? model.contextWindow
  return {
    contextWindow,
    maxOutput: Math.min(chat.maxOutput ?? model.maxOutput, Math.floor(contextWindow / 2)),
    own: chat.contextWindow !== null
  }
}

export function resolveChatSettings(
  session: Pick<
    Session,
    | 'provider'
    | 'modelId'
    | 'strategy'
    | 'autoCompress'
    | 'recall'
    | 'reviewSummaries'
    | 'thresholdPercent'
    | 'contextWindow'
    | 'maxOutput'
  >,
  settings: ChatSettingsSource
): ChatSettings {
  const { provider, modelId } = resolveChatModel(session, settings)
  return {
    provider,
    modelId,
    strategy: session.strategy ?? settings.strategy,
    autoCompress: session.autoCompress ?? settings.autoCompress,
    recall: session.recall ?? settings.recallEnabled,
    reviewSummaries: session.reviewSummaries ?? settings.reviewSummaries,
    summarizer: settings.summarizer,
    threshold: thresholdSetting(settings, provider, modelId, session.thresholdPercent),
    contextWindow: session.contextWindow,
    maxOutput: session.maxOutput,
    own: {
      strategy: session.strategy !== null,
      autoCompress: session.autoCompress !== null,
      recall: session.recall !== null,
      reviewSummaries: session.reviewSummaries != null
    }
  }
}
