import { eq, sql } from 'drizzle-orm'
import type { Db } from '../client'
import { settings } from '../schema'

export function readSettingRows(db: Db): Array<{ key: string; value: unknown }> {
  return db.select({ key: settings.key, value: settings.valueJson }).from(settings).all()
}

/**
 * Stores the value as JSON text. Written out explicitly: drizzle would turn a cleared (null) value
 * into SQL NULL, which the column refuses, failing the whole save.
 */
export function writeSetting(db: Db, key: string, value: unknown, now: number): void {
  db.insert(settings)
    .values({ key, valueJson: sql`${JSON.stringify(value ?? null)}`, updatedAt: now })
    .onConflictDoUpdate({
      target: settings.key,
      set: { valueJson: sql`excluded.value_json`, updatedAt: sql`excluded.updated_at` }
    })
    .run()
}

/** Forgets a stored value: the setting is back to its default, as if never saved. */
export function deleteSetting(db: Db, key: string): void {
  db.delete(settings).where(eq(settings.key, key)).run()
}
