import type { ErrorCode } from './contract/define'

/** An error meant for the user: its code and message cross the transport as they are. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message)
    this.name = 'AppError'
  }
}

export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} was not found. It may have been deleted.`)
}
