import type { CompressionPreview } from '../../../../shared/contract'
import { formatCount } from '../../lib/format-tokens'

export const MAX_RETENTION = 1_000_000

/** The retention override as typed: empty (summarize everything), a valid count, or why not. */
export function parseRetention(text: string): { value: number | undefined; error: string | null } {
  const trimmed = text.trim()
  if (trimmed === '') return { value: undefined, error: null }
  const n = Number(trimmed)
  if (!Number.isFinite(n)) return { value: undefined, error: 'Enter a number' }
  if (!Number.isInteger(n)) return { value: undefined, error: 'Use a whole number' }
  if (n < 0) return { value: undefined, error: 'Cannot be negative' }
  if (n > MAX_RETENTION) return { value: undefined, error: 'At most 1,000,000 tokens' }
  return { value: n, error: null }
}

/**
 * Why summarizing a small chat saves little, in words that agree with "Tokens now" beside them: the
 * minimum is compared with the summary and messages only, while "Tokens now" also counts the system
 * prompt and the request's framing.
 */
export function belowMinimumNote(preview: Pick<CompressionPreview, 'minimumTokens' | 'tokensBefore'>): string {
  const minimum = `${formatCount(preview.minimumTokens)} tokens`
  const why = 'summarizing now saves little, and the summary may be about as long as the messages.'
  return preview.tokensBefore >= preview.minimumTokens
    ? `Without the system prompt and the request’s framing, this chat is below the minimum of ${minimum} for compression: ${why}`
    : `This chat is below the minimum of ${minimum} for compression: ${why}`
}

/**
 * Why a manual summary has nothing to do: every message since the summary (or in the chat) fits in
 * the recent tokens kept word for word, which the field can lower; or there is nothing new at all.
 */
export function nothingToSummarizeNote(
  preview: Pick<CompressionPreview, 'messagesKept' | 'summaryExists'>,
  retention: number | undefined
): string {
  if (!retention || preview.messagesKept === 0) return 'There is nothing new to summarize yet.'
  const all = preview.messagesKept === 1 ? 'The only message' : `All ${formatCount(preview.messagesKept)} messages`
  const where = preview.summaryExists ? ' since the summary' : ''
  const fit = preview.messagesKept === 1 ? 'fits' : 'fit'
  return `${all}${where} ${fit} in the ${formatCount(retention)} recent tokens kept word for word. Lower “Keep recent tokens” to summarize ${preview.messagesKept === 1 ? 'it' : 'them'}.`
}
