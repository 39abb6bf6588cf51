import type { z } from 'zod'

export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
}

export function route<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): RouteDef<I, O> {
  return { input, output }
}

export const errorCodes = [
  'invalid_input',
  'not_found',
  'conflict',
  'unauthorized',
  'unavailable',
  'internal',
  /** The user cancelled the operation; nothing was written. */
  'cancelled',
  /** The chat is busy with another operation (a reply streaming); try when it is done. */
  'busy',
  /** There is nothing (new) for the operation to work on: summarize, regenerate, undo, retry. */
  'nothing_to_do'
] as const
export type ErrorCode = (typeof errorCodes)[number]

export interface RpcError {
  code: ErrorCode
  message: string
  /** zod issues for invalid_input */
  issues?: Array<{ path: Array<string | number>; message: string }>
}

/** What crosses every transport: nothing throws across the boundary. */
export type RpcResult<T> = { ok: true; data: T } | { ok: false; error: RpcError }
