import type { ErrorCode, RpcError } from '../../../shared/contract'

type Issue = NonNullable<RpcError['issues']>[number]

/** A failed request, as the api client throws it. Carries the server's code, message and zod issues. */
export class ApiError extends Error {
  readonly code: ErrorCode
  readonly issues: Issue[]

  constructor(error: RpcError) {
    super(error.message)
    this.name = 'ApiError'
    this.code = error.code
    this.issues = error.issues ?? []
  }

  /** The first message per top-level field, for forms: `{ thresholdPercent: 'At most 99%' }`. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const issue of this.issues) {
      const key = issue.path[0]
      if (key !== undefined && !(String(key) in out)) out[String(key)] = issue.message
    }
    return out
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

/** A message fit for a person, whatever was thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message
  return 'Something went wrong.'
}
