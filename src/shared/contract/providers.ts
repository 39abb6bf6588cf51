import { z } from 'zod'
import { modelInfoSchema, providerEndpointSchema, providerIdSchema, providerStatusSchema } from '../domain/provider'
import { route } from './define'

export const providerRoutes = {
  'providers.list': route(z.object({}).strict(), z.array(providerStatusSchema)),
  /** Sets or clears (null) a key or address. The key is stored in the secret store and never returned. */
  'providers.update': route(
    z
      .object({
        provider: providerIdSchema,
        apiKey: z.string().max(1000).nullable().optional(),
        baseURL: z.union([providerEndpointSchema, z.literal(''), z.null()]).optional()
      })
      .strict(),
    providerStatusSchema
  ),
  /**
   * Lists the provider's models with its key and address: latency, or what went wrong in plain words.
   * A key or address given here (typed in Settings, not saved yet) is tested instead of the saved one,
   * and the result is not remembered as the provider's.
   */
  'providers.test': route(
    z
      .object({
        provider: providerIdSchema,
        apiKey: z.string().max(1000).optional(),
        baseURL: z.union([providerEndpointSchema, z.literal('')]).optional()
      })
      .strict(),
    providerStatusSchema
  ),
  /** Models to pick from: the catalog, the user's own, and what a local server lists. */
  'models.list': route(
    z.object({ provider: providerIdSchema.optional() }).strict(),
    z.object({
      models: z.array(modelInfoSchema),
      warnings: z.array(z.string()),
      /**
       * The model a new chat gets now, and why: the default saved in Settings, else the model last
       * chosen in a chat, else the first that can chat.
       */
      newChat: z
        .object({
          provider: providerIdSchema,
          modelId: z.string(),
          source: z.enum(['default', 'last-chosen', 'first-ready'])
        })
        .optional()
    })
  )
}
