import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, statSync } from 'node:fs'
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
    readonly reason: 'unreadable' | 'too_new' | 'locked' | 'in_use' | 'read_only' | 'foreign' | 'outdated'
  ) {
    super(message)
    this.name = 'DatabaseOpenError'
  }
}

/**
 * Written into the header of every Distill database (`PRAGMA application_id`, 'Dstl'), so a file
 * is known as Distill's own without trusting its table names: another drizzle app's file has a
 * `__drizzle_migrations` table too.
 */
export const DISTILL_APPLICATION_ID = 0x4473746c

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

export interface OpenOptions {
  /**
   * Read without writing anything: no migrations, no pragmas that write, nothing created. Used by
   * commands that only look (they work while the app owns the file).
   */
  readonly?: boolean
  migrationsFolder?: string
}

const readOnlyMessage = (path: string, what = path) =>
  `${what} is read-only: Distill needs to write to it. Check its permissions, or use --db to choose another file.`

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK)
    return true
  } catch {
    return false
  }
}

/** A writer needs the file and its folder (where SQLite keeps the -wal and -shm) writable. */
export function assertWritableLocation(file: string): void {
  const path = resolve(file)
  if (existsSync(path) && !isWritable(path)) throw new DatabaseOpenError(readOnlyMessage(path), path, 'read_only')
  if (!isWritable(dirname(path))) {
    throw new DatabaseOpenError(readOnlyMessage(path, `The folder ${dirname(path)}`), path, 'read_only')
  }
}

/** New files only the user can read: the database and its -wal/-shm (SQLite copies the mode). */
function createPrivately(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
}

/**
 * Opens (creating if needed) the SQLite file, checks it is a Distill database this version can
 * read, applies pending migrations and sets the pragmas. A file that is not a database, that
 * another program created, that a newer Distill has migrated, or that cannot be written is
 * reported and left untouched: nothing is written before those checks pass.
 */
export function openDatabase(file: string, options: OpenOptions = {}): DbHandle {
  const { migrationsFolder = findMigrationsFolder() } = options
  const memory = file === ':memory:'
  // An in-memory database is private to this connection: there is nothing to protect by reading only.
  const readonly = (options.readonly ?? false) && !memory
  const path = memory ? file : resolve(file)
  const exists = !memory && existsSync(path)
  // Nothing saved yet reads as an empty database; nothing is created on disk.
  const emptyInMemory = (): DbHandle => ({ ...openDatabase(':memory:', { migrationsFolder }), file: path })
  if (readonly && !memory && !exists) return emptyInMemory()
  if (!readonly && !memory) {
    assertWritableLocation(path)
    if (!exists) createPrivately(path)
  }
  let sqlite: Database.Database
  try {
    sqlite = new Database(path, { readonly, fileMustExist: readonly })
  } catch (err) {
    throw new DatabaseOpenError(`Cannot open the database ${path}: ${(err as Error).message}`, path, 'unreadable')
  }
  try {
    sqlite.pragma('busy_timeout = 5000')
    // Reading the schema is the first thing that fails on a file that is not SQLite.
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get()
  } catch (err) {
    sqlite.close()
    const copy = readonly ? privateCopy(path, err) : undefined
    if (!copy) throw describeOpenFailure(err, path)
    sqlite = copy
  }

  try {
    assertOurs(sqlite, migrationsFolder, path)
    assertNotNewer(sqlite, migrationsFolder, path)
    if (readonly) {
      if (latestApplied(sqlite) === null) {
        sqlite.close()
        return emptyInMemory()
      }
      assertUpToDate(sqlite, migrationsFolder, path)
      sqlite.pragma('foreign_keys = ON')
      return { db: drizzle(sqlite, { schema }), sqlite, file: path, close: () => sqlite.close() }
    }
    // The first writes: only now that the file is known to be ours (WAL changes the header).
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('foreign_keys = ON')
    sqlite.pragma('synchronous = NORMAL')
    const db = drizzle(sqlite, { schema })
    migrate(db, { migrationsFolder })
    // Marked once migrated: a new file, and one an earlier Distill made before the mark existed.
    if (applicationId(sqlite) !== DISTILL_APPLICATION_ID) sqlite.pragma(`application_id = ${DISTILL_APPLICATION_ID}`)
    return { db, sqlite, file: path, close: () => sqlite.close() }
  } catch (err) {
    sqlite.close()
    if (err instanceof DatabaseOpenError) throw err
    const failure = describeOpenFailure(err, path)
    if (failure.reason !== 'unreadable') throw failure
    throw new DatabaseOpenError(`Cannot prepare the database ${path}: ${(err as Error).message}`, path, 'unreadable')
  }
}

/**
 * A WAL database in a folder this process cannot write cannot be opened even to read (SQLite must
 * create its `-shm`): a reader then reads a private in-memory copy of the file, when everything is
 * in the file (no `-wal` with content). The copy is marked as a rollback-journal database, which
 * is all an in-memory one can be.
 */
function privateCopy(path: string, err: unknown): Database.Database | undefined {
  const code = (err as { code?: string }).code
  if (code !== 'SQLITE_CANTOPEN' && !code?.startsWith('SQLITE_READONLY')) return undefined
  try {
    if (existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0) return undefined
    const bytes = readFileSync(path)
    if (bytes.length >= 100 && bytes[18] === 2 && bytes[19] === 2) bytes.fill(1, 18, 20)
    const copy = new Database(bytes, { readonly: true })
    copy.prepare('SELECT count(*) FROM sqlite_master').get()
    return copy
  } catch {
    return undefined
  }
}

function describeOpenFailure(err: unknown, path: string): DatabaseOpenError {
  const code = (err as { code?: string }).code
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new DatabaseOpenError(`The database ${path} is locked by another program.`, path, 'locked')
  }
  if (code?.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN') {
    return new DatabaseOpenError(readOnlyMessage(path), path, 'read_only')
  }
  return new DatabaseOpenError(
    `The file ${path} is not a Distill database or is damaged (${(err as Error).message}). ` +
      'It was left untouched; move it away or start with --db pointing to another file.',
    path,
    'unreadable'
  )
}

const applicationId = (sqlite: Database.Database) => Number(sqlite.pragma('application_id', { simple: true }))

/**
 * Distill's own file: marked with its application id, or (made before the mark) holding only
 * migrations from Distill's journal. An empty file is set up; any other is another program's and is
 * refused before anything is written: another app's drizzle migrations, a file holding only a view.
 */
function assertOurs(sqlite: Database.Database, migrationsFolder: string, path: string): void {
  const id = applicationId(sqlite)
  if (id === DISTILL_APPLICATION_ID) return
  const objects = sqlite.prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all() as Array<{
    type: string
    name: string
  }>
  if (id === 0 && objects.length === 0) return
  if (id === 0 && isUnmarkedDistill(sqlite, migrationsFolder, objects)) return
  const tables = objects.filter((o) => o.type === 'table').length
  const holds =
    tables > 0
      ? `${tables} other table${tables === 1 ? '' : 's'}`
      : `${objects.length} other schema object${objects.length === 1 ? '' : 's'}`
  throw new DatabaseOpenError(
    `The file ${path} is a SQLite database that Distill did not create (it holds ${holds}${id !== 0 ? `, application id ${id}` : ''}). ` +
      'It was left untouched; use --db to choose another file.',
    path,
    'foreign'
  )
}

/** Made by a Distill from before the application id: Distill's tables, and only Distill's migrations applied. */
function isUnmarkedDistill(
  sqlite: Database.Database,
  migrationsFolder: string,
  objects: ReadonlyArray<{ name: string }>
): boolean {
  const names = new Set(objects.map((o) => o.name))
  if (!['__drizzle_migrations', 'sessions', 'chat_messages', 'settings'].every((t) => names.has(t))) return false
  const known = new Set(readJournal(migrationsFolder).entries.map((e) => e.when))
  const applied = sqlite.prepare('SELECT created_at AS at FROM __drizzle_migrations').all() as Array<{
    at: number | string | null
  }>
  return applied.length > 0 && applied.every((m) => known.has(Number(m.at)))
}

function readJournal(migrationsFolder: string): Journal {
  return JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal
}

function latestKnownMigration(migrationsFolder: string): number {
  const journal = readJournal(migrationsFolder)
  return Math.max(0, ...journal.entries.map((e) => e.when))
}

function latestApplied(sqlite: Database.Database): number | null {
  const hasTable = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get()
  if (!hasTable) return null
  const row = sqlite.prepare('SELECT max(created_at) AS latest FROM __drizzle_migrations').get() as {
    latest: number | null
  }
  return row.latest === null ? null : Number(row.latest)
}

/** Reading cannot migrate: a file an older Distill wrote must be opened by a writer once. */
function assertUpToDate(sqlite: Database.Database, migrationsFolder: string, path: string): void {
  const applied = latestApplied(sqlite) ?? 0
  if (applied >= latestKnownMigration(migrationsFolder)) return
  throw new DatabaseOpenError(
    `The database ${path} was written by an older version of Distill and needs an update first: ` +
      'open it once with the app or `distill serve`, then try again.',
    path,
    'outdated'
  )
}

/** Refuses a database that holds migrations this version does not know: a newer Distill wrote it. */
function assertNotNewer(sqlite: Database.Database, migrationsFolder: string, path: string): void {
  const applied = latestApplied(sqlite)
  if (applied !== null && applied > latestKnownMigration(migrationsFolder)) {
    throw new DatabaseOpenError(
      `The database ${path} was written by a newer version of Distill. ` +
        'Update Distill to open it; the file was left untouched.',
      path,
      'too_new'
    )
  }
}
