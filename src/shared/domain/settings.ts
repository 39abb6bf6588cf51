import { z } from 'zod'
import { customModelSchema, providerEndpointSchema, providerIdSchema } from './provider'
import { strategySchema } from './session'

export const thresholdPercentSchema = z
  .number()
  .int('Use a whole number')
  .min(50, 'At least 50%')
  .max(99, 'At most 99%')

/** Each setting's validation, without defaults, so a patch can name only what it changes. */
export const settingsFieldsSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  autoCompress: z.boolean(),
  thresholdPercent: thresholdPercentSchema,
  /** Thresholds for particular models, keyed `provider:modelId` (FR-1.2.3); the global one applies to the rest. */
  modelThresholds: z
    .record(
      z.string().regex(/^(openai|anthropic|google|openai-compatible):.{1,200}$/, 'Name a model as provider:model'),
      thresholdPercentSchema
    )
    .refine((r) => Object.keys(r).length <= 200, 'At most 200 models'),
  retentionTokens: z
    .number()
    .int('Use a whole number')
    .min(0, 'Cannot be negative')
    .max(200_000, 'At most 200,000 tokens'),
  safetyMarginPercent: z.number().min(0, 'Cannot be negative').max(30, 'At most 30%'),
  minimumTokens: z
    .number()
    .int('Use a whole number')
    .min(0, 'Cannot be negative')
    .max(1_000_000, 'At most 1,000,000 tokens'),
  strategy: strategySchema,
  summarizer: z.enum(['llm', 'extractive']),
  /**
   * Where the next model summary starts being written in the background, as a share of the
   * threshold, so it is ready when the threshold is reached (0: never ahead, only when needed).
   */
  prepareAtPercent: z.number().int('Use a whole number').min(0, 'Cannot be negative').max(95, 'At most 95%'),
  /**
   * With a paid summarization model, prepare right after a reply even if the chat may go quiet;
   * off: only once the user starts typing the next message (an idle chat costs nothing).
   */
  prepareWhenIdle: z.boolean(),
  /** A summary waits as a draft in the Summary panel until the user accepts it (off: it swaps in, with Undo). */
  reviewSummaries: z.boolean(),
  /** A model id; null (not an empty name, which no provider has) for the chat model's own choice. */
  summarizationModel: z
    .string()
    .trim()
    .min(1, 'Name a model, or clear the field to use the chat model’s')
    .max(200)
    .nullable(),
  notifications: z.boolean(),
  /** How long a reply may take to send its first words before it is given up (local models read long prompts slowly). */
  firstChunkTimeoutSeconds: z
    .number()
    .int('Use a whole number')
    .min(10, 'At least 10 seconds')
    .max(3600, 'At most 3,600 seconds'),
  /** Bring summarized originals that match the pending message back into its request (DESIGN §11). */
  recallEnabled: z.boolean(),
  /** Recall's share of the usable budget U. */
  recallBudgetPercent: z.number().int('Use a whole number').min(1, 'At least 1%').max(50, 'At most 50%'),
  /** Pinned messages together may take at most this share of a chat's usable budget (pinning more is refused). */
  pinShareLimit: z.number().int('Use a whole number').min(1, 'At least 1%').max(60, 'At most 60%'),
  /**
   * The provider and model new chats start with, once the user saved them in Settings (until then
   * these are the built-in fallback, and new chats take the model last chosen in a chat).
   */
  defaultProvider: providerIdSchema,
  defaultModel: z.string().trim().min(1).max(200),
  /** The model last chosen in a chat's model picker: new chats start on it when no default is saved. */
  lastChatModel: z.object({ provider: providerIdSchema, modelId: z.string().trim().min(1).max(200) }).nullable(),
  /** Base URLs set in Settings (keys live in the secret store, never here). */
  providerBaseURLs: z.partialRecord(providerIdSchema, providerEndpointSchema.nullable()),
  /**
   * Prompt-cache fields in requests (Anthropic breakpoints, OpenAI's cache key), per provider: on
   * unless set false, for a server or proxy that refuses fields it does not know.
   */
  promptCaching: z.partialRecord(providerIdSchema, z.boolean()),
  customModels: z.array(customModelSchema).max(200)
})
export type Settings = z.infer<typeof settingsFieldsSchema>
export type SettingKey = keyof Settings

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  autoCompress: true,
  thresholdPercent: 95,
  modelThresholds: {},
  retentionTokens: 1000,
  safetyMarginPercent: 5,
  minimumTokens: 2000,
  strategy: 'rolling',
  summarizer: 'llm',
  prepareAtPercent: 80,
  prepareWhenIdle: false,
  reviewSummaries: false,
  summarizationModel: null,
  notifications: true,
  firstChunkTimeoutSeconds: 300,
  recallEnabled: true,
  recallBudgetPercent: 15,
  pinShareLimit: 25,
  defaultProvider: 'openai',
  defaultModel: 'gpt-4o-mini',
  lastChatModel: null,
  providerBaseURLs: {},
  promptCaching: {},
  customModels: []
}

export const settingsSchema = settingsFieldsSchema

/**
 * A change to some settings; unknown keys are refused. The default model for new chats can also be
 * forgotten (null for both): new chats then start on the model last chosen in a chat.
 */
export const settingsPatchSchema = settingsFieldsSchema
  .extend({
    defaultProvider: settingsFieldsSchema.shape.defaultProvider.nullable(),
    defaultModel: settingsFieldsSchema.shape.defaultModel.nullable()
  })
  .partial()
  .strict()
  .refine((p) => (p.defaultProvider === null) === (p.defaultModel === null), {
    message: 'Forget the default provider and model together',
    path: ['defaultModel']
  })
export type SettingsPatch = z.infer<typeof settingsPatchSchema>

export type ThresholdSource = 'chat' | 'model' | 'global'

/**
 * The compression threshold a chat uses, and where it is set: the chat's own (its settings), its
 * model's (Settings → Models), or the global one (Settings → Compression), first found wins.
 */
export function thresholdSetting(
  settings: Pick<Settings, 'thresholdPercent' | 'modelThresholds'>,
  provider: string,
  modelId: string,
  chatPercent: number | null = null
): { percent: number; source: ThresholdSource } {
  if (chatPercent !== null) return { percent: chatPercent, source: 'chat' }
  const own = settings.modelThresholds[`${provider}:${modelId}`]
  return own !== undefined
    ? { percent: own, source: 'model' }
    : { percent: settings.thresholdPercent, source: 'global' }
}
