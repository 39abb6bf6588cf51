import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import * as schema from './schema'

export type Db = BetterSQLite3Database<typeof schema>

/** The handle inside `db.transaction((tx) => …)`; repositories accept it wherever they take a Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export interface DbHandle {
  db: Db
  sqlite: Database.Database
  file: string
  close(): void
}

/** The database cannot be used; the message says why in words a user can act on. */
export class DatabaseOpenError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly reason: 'unreadable' | 'too_new' | 'locked'
  ) {
    super(message)
    this.name = 'DatabaseOpenError'
  }
}

interface Journal {
  entries: Array<{ idx: number; when: number; tag: string }>
}

/** Finds the drizzle/ folder from the source tree (tests) or the built bundle (out/main). */
export function findMigrationsFolder(start: string = __dirname): string {
  let dir = start
  for (;;) {
    const candidate = join(dir, 'drizzle')
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`Cannot find the drizzle migrations folder above ${start}`)
    dir = parent
  }
}

/**
 * Opens (creating if needed) the SQLite file, checks it is a Distill database this version can
 * read, applies pending migrations and sets the pragmas. A file that is not a database, or that a
 * newer Distill has migrated, is reported and left untouched.
 */
export function openDatabase(file: string, migrationsFolder = findMigrationsFolder()): DbHandle {
  const path = file === ':memory:' ? file : resolve(file)
  let sqlite: Database.Database
  try {
    sqlite = new Database(path)
  } catch (err) {
    throw new DatabaseOpenError(`Cannot open the database ${path}: ${(err as Error).message}`, path, 'unreadable')
  }
  try {
    sqlite.pragma('busy_timeout = 5000')
    // Reading the schema is the first thing that fails on a file that is not SQLite.
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get()
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('foreign_keys = ON')
    sqlite.pragma('synchronous = NORMAL')
  } catch (err) {
    sqlite.close()
    const code = (err as { code?: string }).code
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new DatabaseOpenError(`The database ${path} is locked by another program.`, path, 'locked')
    }
    throw new DatabaseOpenError(
      `The file ${path} is not a Distill database or is damaged (${(err as Error).message}). ` +
        'It was left untouched; move it away or start with --db pointing to another file.',
      path,
      'unreadable'
    )
  }

  try {
    assertNotNewer(sqlite, migrationsFolder, path)
    const db = drizzle(sqlite, { schema })
    migrate(db, { migrationsFolder })
    return { db, sqlite, file: path, close: () => sqlite.close() }
  } catch (err) {
    sqlite.close()
    if (err instanceof DatabaseOpenError) throw err
    throw new DatabaseOpenError(`Cannot prepare the database ${path}: ${(err as Error).message}`, path, 'unreadable')
  }
}

/** Refuses a database that holds migrations this version does not know: a newer Distill wrote it. */
function assertNotNewer(sqlite: Database.Database, migrationsFolder: string, path: string): void {
  const hasTable = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get()
  if (!hasTable) return
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal
  const latestKnown = Math.max(0, ...journal.entries.map((e) => e.when))
  const row = sqlite.prepare('SELECT max(created_at) AS latest FROM __drizzle_migrations').get() as {
    latest: number | null
  }
  if (row.latest !== null && Number(row.latest) > latestKnown) {
    throw new DatabaseOpenError(
      `The database ${path} was written by a newer version of Distill. ` +
        'Update Distill to open it; the file was left untouched.',
      path,
      'too_new'
    )
  }
}
