import type { z } from 'zod'

/** The values of a domain enum as the tuple drizzle's `text({ enum })` needs: one source for both. */
export function enumValues<T extends string>(schema: z.ZodEnum<{ [K in T]: K }>): [T, ...T[]] {
  return schema.options as [T, ...T[]]
}
