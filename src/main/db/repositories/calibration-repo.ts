import { sql } from 'drizzle-orm'
import type { Db } from '../client'
import { tokenCalibration } from '../schema'

export interface CalibrationEntry {
  factor: number
  samples: number
  spread?: number
}

/** Every model's calibration, keyed by `provider:modelId`. */
export function readCalibration(db: Db): Record<string, CalibrationEntry> {
  const out: Record<string, CalibrationEntry> = {}
  for (const row of db.select().from(tokenCalibration).all())
    out[row.modelKey] = { factor: row.factor, samples: row.samples, spread: row.spread }
  return out
}

export function writeCalibration(db: Db, modelKey: string, entry: CalibrationEntry, now: number): void {
  db.insert(tokenCalibration)
    .values({ modelKey, factor: entry.factor, samples: entry.samples, spread: entry.spread ?? 0, updatedAt: now })
    .onConflictDoUpdate({
      target: tokenCalibration.modelKey,
      set: {
        factor: sql`excluded.factor`,
        samples: sql`excluded.samples`,
        spread: sql`excluded.spread`,
        updatedAt: sql`excluded.updated_at`
      }
    })
    .run()
}
