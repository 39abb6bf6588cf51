import { z } from 'zod'
import catalogJson from './catalog.json'

export const providerSchema = z.enum(['openai', 'anthropic', 'google', 'openai-compatible'])
export type Provider = z.infer<typeof providerSchema>

/** How a model's tokens are counted: a tiktoken encoding (exact), a provider endpoint, or an estimate. */
export const tokenizerSchema = z.enum(['o200k_base', 'cl100k_base', 'anthropic', 'gemini', 'estimate'])
export type Tokenizer = z.infer<typeof tokenizerSchema>

const price = z.number().nonnegative().nullable().default(null)

/** One model's limits and defaults (FR-3.2.1). The lead may move this schema to src/shared/domain. */
export const modelSpecSchema = z
  .object({
    provider: providerSchema,
    id: z.string().min(1),
    label: z.string().min(1),
    /** Total window in tokens (input + output share it for every listed provider). */
    contextWindow: z.number().int().positive(),
    maxOutput: z.number().int().positive(),
    tokenizer: tokenizerSchema,
    defaultThresholdPercent: z.number().int().min(50).max(99).default(95),
    defaultRetentionTokens: z.number().int().nonnegative().default(1000),
    /** USD per million tokens; null when unknown (local models). */
    pricePerMTokInput: price,
    pricePerMTokOutput: price,
    /** Input read from the provider's prompt cache; null: billed as input (no discount known). */
    pricePerMTokCacheRead: price,
    /** Input written to the prompt cache (Anthropic bills 1.25×); null: billed as input. */
    pricePerMTokCacheWrite: price,
    /** OpenAI keeps this model's prompt cache for 24 hours when the request asks (promptCacheRetention). */
    extendedCacheRetention: z.boolean().default(false),
    /** A cheaper model of the same provider used to write summaries. */
    summarizationModel: z.string().min(1).optional(),
    /** Other ids the provider accepts for this model (dated snapshots with irregular names). */
    aliases: z.array(z.string().min(1)).optional(),
    /** Takes images as input. Every catalog model does unless it says `"vision": false`. */
    vision: z.boolean().default(true),
    notes: z.string().optional()
  })
  .refine((m) => m.maxOutput <= m.contextWindow, { message: 'maxOutput exceeds contextWindow' })
export type ModelSpec = z.output<typeof modelSpecSchema>

/**
 * A model the user adds in settings (Ollama, LM Studio, a custom deployment). Only the id and window
 * are required; the rest gets defaults that keep counting conservative.
 */
export const userModelSchema = z
  .object({
    provider: providerSchema.default('openai-compatible'),
    id: z.string().min(1),
    label: z.string().min(1).optional(),
    contextWindow: z.number().int().positive(),
    maxOutput: z.number().int().positive().optional(),
    tokenizer: tokenizerSchema.default('estimate'),
    defaultThresholdPercent: z.number().int().min(50).max(99).default(95),
    defaultRetentionTokens: z.number().int().nonnegative().default(1000),
    pricePerMTokInput: price,
    pricePerMTokOutput: price,
    pricePerMTokCacheRead: price,
    pricePerMTokCacheWrite: price,
    extendedCacheRetention: z.boolean().default(false),
    summarizationModel: z.string().min(1).optional(),
    /** Takes images; when not said, guessed from the name (llava, …-vision, …-vl, gemma3, pixtral). */
    vision: z.boolean().optional()
  })
  .transform((m): ModelSpec => ({
    ...m,
    vision: m.vision ?? looksVisual(m.id),
    label: m.label ?? m.id,
    maxOutput: Math.min(m.maxOutput ?? 4096, m.contextWindow)
  }))
/** Local model families known to take images, by the names servers give them. */
const VISUAL_NAME =
  /llava|bakllava|vision|[-_.:]vl\b|vl[-_:]|pixtral|moondream|minicpm-v|gemma-?3|llama-?4|qwen[\d.]*-?vl|internvl|granite3\.2-vision|mistral-small3\.[12]/i

export function looksVisual(modelId: string): boolean {
  return VISUAL_NAME.test(modelId)
}

export type UserModelInput = z.input<typeof userModelSchema>

const catalogFileSchema = z.object({ models: z.array(modelSpecSchema) }).superRefine((file, ctx) => {
  const keys = new Set<string>()
  for (const m of file.models) {
    for (const id of [m.id, ...(m.aliases ?? [])]) {
      const key = modelKey(m.provider, id)
      if (keys.has(key)) ctx.addIssue({ code: 'custom', message: `duplicate model ${key}` })
      keys.add(key)
    }
  }
  for (const m of file.models) {
    if (m.summarizationModel && !keys.has(modelKey(m.provider, m.summarizationModel))) {
      ctx.addIssue({ code: 'custom', message: `${m.id}: unknown summarizationModel ${m.summarizationModel}` })
    }
  }
})

export function modelKey(provider: string, id: string): string {
  return `${provider}:${id}`
}

/** Parsed once at load: a malformed catalog is a build error, caught by catalog.test.ts. */
export const CATALOG: readonly ModelSpec[] = catalogFileSchema.parse(catalogJson).models

const index = new Map<string, ModelSpec>()
for (const m of CATALOG) {
  for (const id of [m.id, ...(m.aliases ?? [])]) index.set(modelKey(m.provider, id), m)
}

/** Dated snapshots ('gpt-4o-2024-08-06', 'claude-sonnet-4-5-20250929', 'gpt-4-0613') share their base model's spec. */
const SNAPSHOT_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$/

/**
 * The spec for a provider's model id. User-defined models win over the catalog, so a user can
 * correct a window (e.g. a smaller deployment). Unknown ids return undefined: the caller decides.
 */
export function resolveModel(
  provider: string,
  modelId: string,
  userModels: readonly ModelSpec[] = []
): ModelSpec | undefined {
  const user = userModels.find((m) => m.provider === provider && m.id === modelId)
  if (user) return user
  const exact = index.get(modelKey(provider, modelId))
  if (exact) return exact
  const base = modelId.replace(SNAPSHOT_SUFFIX, '')
  return base === modelId ? undefined : index.get(modelKey(provider, base))
}

/** Every selectable model: the catalog plus user models (a user model replaces a catalog entry with its id). */
export function listModels(userModels: readonly ModelSpec[] = []): ModelSpec[] {
  const overridden = new Set(userModels.map((m) => modelKey(m.provider, m.id)))
  return [...CATALOG.filter((m) => !overridden.has(modelKey(m.provider, m.id))), ...userModels]
}
