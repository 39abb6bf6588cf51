import type Database from 'better-sqlite3'
import type { Db } from '../client'

/** The better-sqlite3 connection behind a drizzle database or one of its transactions. */
export function sqliteClient(db: Db): Database.Database {
  const handle = db as unknown as { $client?: Database.Database; session: { client: Database.Database } }
  return handle.$client ?? handle.session.client
}
