import { closeSync, existsSync, mkdirSync, openSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { hostname, tmpdir } from 'node:os'
import Database from 'better-sqlite3'
import { assertWritableLocation, DatabaseOpenError } from './client'

/** Who writes to a database: shown to a second process that wants to write too. */
export interface OwnerInfo {
  pid: number
  command: string
  startedAt: number
  host: string
}

export interface OwnerLock {
  readonly info: OwnerInfo
  release(): void
}

/** Another process owns the database; `owner` is who, when it could be read. */
export class DatabaseInUseError extends DatabaseOpenError {
  constructor(
    file: string,
    readonly owner: OwnerInfo | undefined
  ) {
    super(inUseMessage(owner), file, 'in_use')
    this.name = 'DatabaseInUseError'
  }
}

/**
 * The lock beside the file the path leads to: a symbolic link (to the file or to a folder on its
 * path) names the same database, and must meet the same lock.
 */
export function lockFileOf(dbFile: string): string {
  return `${realPath(dbFile)}.lock`
}

function realPath(file: string): string {
  try {
    return realpathSync(file)
  } catch {
    // Not created yet: its folder may still be reached through a link.
    try {
      return join(realpathSync(dirname(resolve(file))), basename(file))
    } catch {
      return resolve(file)
    }
  }
}

function since(ms: number): string {
  const d = new Date(ms)
  const time = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
  const today = new Date()
  return d.toDateString() === today.toDateString() ? time : `${d.toISOString().slice(0, 10)} ${time}`
}

export function inUseMessage(owner: OwnerInfo | undefined): string {
  const who = owner
    ? ` (${owner.command}, pid ${owner.pid}${owner.host !== hostname() ? ` on ${owner.host}` : ''}, since ${since(owner.startedAt)})`
    : ' (another Distill process)'
  return `This database is open in Distill${who}. Close it first, or use --db to choose another file.`
}

/** Held connections, so garbage collection can never close one (and drop its lock) early. */
const held = new Set<Database.Database>()

const SCHEMA = `CREATE TABLE IF NOT EXISTS owner (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  command TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  host TEXT NOT NULL
)`

function isBusy(err: unknown): boolean {
  const code = (err as { code?: string }).code
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED'
}

/** The owner recorded in the lock file, read without waiting on it for long. */
export function readOwner(dbFile: string): OwnerInfo | undefined {
  return readOwnerAt(lockFileOf(dbFile))
}

function readOwnerAt(path: string): OwnerInfo | undefined {
  if (!existsSync(path)) return undefined
  let conn: Database.Database | undefined
  try {
    conn = new Database(path, { readonly: true, timeout: 1000 })
    const row = conn.prepare('SELECT pid, command, started_at AS startedAt, host FROM owner WHERE id = 1').get() as
      OwnerInfo | undefined
    return row
  } catch {
    return undefined // being created right now, or not readable: the sentence stays generic
  } finally {
    conn?.close()
  }
}

/**
 * Makes this process the one writer of `dbFile` for as long as it runs.
 *
 * The lock is a small SQLite file beside the database whose RESERVED lock (an open `BEGIN
 * IMMEDIATE`) this process holds until it releases it or dies: the operating system drops the lock
 * with the process, so a crash never leaves a stale lock and a reused pid cannot fake one. Other
 * processes can still read the `owner` row to say who holds it. The file itself is never deleted:
 * a process that opened it just before a delete would lock an orphaned copy.
 */
export function acquireOwnerLock(dbFile: string, command: string): OwnerLock {
  assertWritableLocation(dbFile)
  return lockAt(lockFileOf(dbFile), dbFile, command)
}

/**
 * The same lock for the database file itself, whatever path leads to it: a hard link is another
 * name for the same file, beside which `acquireOwnerLock` finds another lock file. Kept under the
 * user's temporary folder by the file's device and inode, taken once the file exists.
 */
export function acquireFileLock(dbFile: string, command: string): OwnerLock {
  try {
    const { dev, ino } = statSync(realPath(dbFile))
    const dir = join(tmpdir(), `distill-locks-${process.getuid?.() ?? 'user'}`)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    return lockAt(join(dir, `${dev}-${ino}.lock`), dbFile, command)
  } catch (err) {
    if (err instanceof DatabaseInUseError) throw err
    // No usable temporary folder: the lock beside the path still holds; only hard links go unmet.
    return { info: { pid: process.pid, command, startedAt: Date.now(), host: hostname() }, release: () => undefined }
  }
}

function lockAt(path: string, dbFile: string, command: string): OwnerLock {
  // Created by us, only for us. Never opened with fs once it exists: closing any descriptor of a
  // file drops this process's POSIX locks on it.
  if (!existsSync(path)) {
    try {
      closeSync(openSync(path, 'wx', 0o600))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  const conn = new Database(path, { timeout: 0 })
  const info: OwnerInfo = { pid: process.pid, command, startedAt: Date.now(), host: hostname() }
  const refuse = (): never => {
    conn.close()
    throw new DatabaseInUseError(dbFile, readOwnerAt(path))
  }
  try {
    // Write who we are, commit so others can read it, then hold the write lock. Another process
    // may slip in between the commit and the hold: it then owns the file and we report it; the
    // check below catches the rarer case where its row overwrote ours but we got the lock.
    for (let attempt = 0; attempt < 5; attempt++) {
      conn.exec('BEGIN IMMEDIATE')
      conn.exec(SCHEMA)
      conn
        .prepare('INSERT OR REPLACE INTO owner (id, pid, command, started_at, host) VALUES (1, ?, ?, ?, ?)')
        .run(info.pid, info.command, info.startedAt, info.host)
      conn.exec('COMMIT')
      conn.exec('BEGIN IMMEDIATE')
      const row = conn.prepare('SELECT pid, started_at AS startedAt, host FROM owner WHERE id = 1').get() as
        OwnerInfo | undefined
      if (row && row.pid === info.pid && row.startedAt === info.startedAt && row.host === info.host) {
        held.add(conn)
        return {
          info,
          release: () => {
            held.delete(conn)
            if (!conn.open) return
            try {
              conn.exec('DELETE FROM owner')
              conn.exec('COMMIT')
            } finally {
              conn.close()
            }
          }
        }
      }
      conn.exec('ROLLBACK')
    }
    return refuse()
  } catch (err) {
    if (isBusy(err)) return refuse()
    if (conn.open) conn.close()
    const code = (err as { code?: string }).code
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new DatabaseOpenError(
        `The lock file ${path} is damaged. If no Distill is running on this database, delete that file and try again.`,
        dbFile,
        'locked'
      )
    }
    throw err
  }
}
