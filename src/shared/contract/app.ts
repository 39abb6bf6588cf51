import { z } from 'zod'
import { route } from './define'

export const appInfoSchema = z.object({
  name: z.literal('Distill'),
  version: z.string(),
  mode: z.enum(['electron', 'browser']),
  databaseFile: z.string(),
  /** Stored settings that failed validation at start-up and were reset to their defaults. */
  warnings: z.array(z.string())
})
export type AppInfo = z.infer<typeof appInfoSchema>

export const appRoutes = {
  'app.info': route(z.object({}).strict(), appInfoSchema)
}
