import { AppError } from '../../shared/app-error'

/**
 * SQLite failures a user can understand and act on, as AppErrors; anything else stays internal.
 * With one writer per database these are rare (busy_timeout already waits 5 s), but when they
 * happen the user reads what happened, not "something went wrong".
 */
export function databaseError(err: unknown): AppError | undefined {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new AppError(
      'unavailable',
      'The database is busy: another program is using it. Nothing was changed; try again in a moment.'
    )
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new AppError(
      'unavailable',
      'The database is open read-only here, so nothing was changed. Check its permissions, or make the change in the Distill window that owns it.'
    )
  }
  if (code === 'SQLITE_FULL') {
    return new AppError('unavailable', 'The disk is full, so nothing was saved. Free some space and try again.')
  }
  return undefined
}
