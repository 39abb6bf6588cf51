import { sql } from 'drizzle-orm'
import type { Db } from '../client'
import { settings } from '../schema'

export function readSettingRows(db: Db): Array<{ key: string; value: unknown }> {
  return db
    .select({ key: settings.key, value: settings.valueJson })
    .from(settings)
    .all()
}

export function writeSetting(db: Db, key: string, value: unknown, now: number): void {
  db.insert(settings)
    .values({ key, valueJson: value, updatedAt: now })
    .onConflictDoUpdate({
      target: settings.key,
      set: { valueJson: sql`excluded.value_json`, updatedAt: sql`excluded.updated_at` }
    })
    .run()
}
