import { sql } from 'drizzle-orm'
import type { Db } from '../client'
import { tokenCalibration } from '../schema'

export interface CalibrationEntry {
  factor: number
  samples: number
}

/** Every model's calibration, keyed by `provider:modelId`. */
export function readCalibration(db: Db): Record<string, CalibrationEntry> {
  const out: Record<string, CalibrationEntry> = {}
  for (const row of db.select().from(tokenCalibration).all()) out[row.modelKey] = { factor: row.factor, samples: row.samples }
  return out
}

export function writeCalibration(db: Db, modelKey: string, entry: CalibrationEntry, now: number): void {
  db.insert(tokenCalibration)
    .values({ modelKey, ...entry, updatedAt: now })
    .onConflictDoUpdate({
      target: tokenCalibration.modelKey,
      set: { factor: sql`excluded.factor`, samples: sql`excluded.samples`, updatedAt: sql`excluded.updated_at` }
    })
    .run()
}
