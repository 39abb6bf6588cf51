import { z } from 'zod'

export const providerIdSchema = z.enum(['openai', 'anthropic', 'google', 'openai-compatible'])
export type ProviderId = z.infer<typeof providerIdSchema>

export const PROVIDER_LABELS: Record<ProviderId, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
  'openai-compatible': 'Local / OpenAI-compatible'
}

/** What the renderer may know of a provider: never the key itself. */
export const providerCheckSchema = z.object({
  state: z.enum(['unchecked', 'checking', 'ok', 'failed']),
  /** When the check finished (ms since the epoch). */
  at: z.number().nullable(),
  latencyMs: z.number().nullable(),
  /** How many models the provider listed. */
  models: z.number().int().nullable(),
  /** What went wrong, in plain words. */
  message: z.string().nullable()
})
export type ProviderCheck = z.infer<typeof providerCheckSchema>

export const providerStatusSchema = z.object({
  id: providerIdSchema,
  label: z.string(),
  keySet: z.boolean(),
  /** The last four characters of the key, to tell keys apart. */
  keyHint: z.string().nullable(),
  keySource: z.enum(['settings', 'environment']).nullable(),
  baseURL: z.string().nullable(),
  baseURLSource: z.enum(['settings', 'environment']).nullable(),
  /** Whether a chat can be sent: a key (or, for local servers, a base URL) is there. */
  ready: z.boolean(),
  /** The last connection check in this run of the app: "Ready" is shown only after one succeeded. */
  check: providerCheckSchema,
  /** Why a saved key is unavailable (its file was damaged and set aside), in words; absent when it is not. */
  keyProblem: z.string().optional()
})
export type ProviderStatus = z.infer<typeof providerStatusSchema>

export const tokenizerSchema = z.enum(['o200k_base', 'cl100k_base', 'anthropic', 'gemini', 'estimate'])

/** A model as the picker and the budget see it. */
export const modelInfoSchema = z.object({
  provider: providerIdSchema,
  id: z.string(),
  label: z.string(),
  contextWindow: z.number().int().positive(),
  maxOutput: z.number().int().positive(),
  tokenizer: tokenizerSchema,
  source: z.enum(['catalog', 'custom', 'server']),
  /**
   * Where the context window comes from: the catalog or the user's own model, the local server
   * itself (the window it loaded), or an assumption (nobody said: a small default).
   */
  windowSource: z.enum(['catalog', 'custom', 'server', 'assumed']),
  /** Which server and which field of its answer told the window, when a local server did: "Ollama, loaded model (/api/ps)". */
  windowFrom: z.string().optional(),
  /** Takes images as input (the catalog says; a local model by its name unless the user said). */
  vision: z.boolean().optional()
})
export type ModelInfo = z.infer<typeof modelInfoSchema>

/** A model the user adds by hand, e.g. one served by Ollama or LM Studio. */
export const customModelSchema = z.object({
  provider: providerIdSchema,
  id: z.string().trim().min(1, 'Name the model').max(200),
  label: z.string().trim().max(200).optional(),
  contextWindow: z
    .number()
    .int('Use a whole number')
    .min(512, 'At least 512 tokens')
    .max(10_000_000, 'At most 10,000,000 tokens'),
  maxOutput: z
    .number()
    .int('Use a whole number')
    .min(16, 'At least 16 tokens')
    .max(1_000_000, 'At most 1,000,000 tokens'),
  /** How to count its tokens; local models default to an estimate that calibration corrects. */
  tokenizer: tokenizerSchema.optional(),
  /** Takes images; when not said, guessed from the model's name. */
  vision: z.boolean().optional()
})
export type CustomModel = z.infer<typeof customModelSchema>

export const providerEndpointSchema = z
  .string()
  .trim()
  .url('Enter a full URL such as http://127.0.0.1:11434/v1')
  .refine((u) => /^https?:\/\//.test(u), 'Use an http:// or https:// address')
