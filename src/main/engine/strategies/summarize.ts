/**
 * The summarizer contract shared by the tiered and importance strategies, and the offline adapter
 * over the extractive summarizer. Strategies never call a model: they ask `summarize` for a text of
 * about `targetTokens` and then enforce the size themselves with `fitText`.
 */
import { summarizeExtractive } from '../extractive/summarize-extractive'
import { HEADER_PATTERN } from '../extractive/sentences'
import { truncateMiddle } from '../truncate'
import type { CountTokens, EngineRole } from '../types'

export interface SummarizeInput {
  /**
   * What the summary is for: 'attention' (the middle of the current topic), 'topic' (a sealed topic),
   * 'bulk' (several topic summaries merged), 'turn' (one turn condensed by the importance strategy).
   */
  purpose: 'attention' | 'topic' | 'bulk' | 'turn'
  /** Earlier summary text to fold in (cascade), printed before the messages. */
  previousSummary?: string
  messages: ReadonlyArray<{ role: EngineRole; text: string; createdAt?: number; statedDay?: number }>
  targetTokens: number
}

export type Summarize = (input: SummarizeInput) => string
export type SummarizeAsync = (input: SummarizeInput) => Promise<string>

export interface StrategyContext {
  countTokens: CountTokens
  summarize: Summarize
}

/**
 * Makes a summary fit its target whatever the summarizer returned (an LLM may overshoot): cut in the
 * middle with the [...N...] marker, or nothing at all when even the marker does not fit. An empty
 * text counts 0 tokens: the caller leaves it out of the context.
 */
export function fitText(
  text: string,
  targetTokens: number,
  countTokens: CountTokens
): { text: string; tokens: number } {
  const trimmed = text.trim()
  if (trimmed === '' || targetTokens <= 0) return { text: '', tokens: 0 }
  const cut = truncateMiddle(trimmed, targetTokens, countTokens)
  const tokens = countTokens(cut)
  return tokens <= targetTokens ? { text: cut, tokens } : { text: '', tokens: 0 }
}

/** One turn condensed: the extractive picks without the header and speaker labels (the role stays the turn's own). */
function condenseTurn(input: SummarizeInput, countTokens: CountTokens): string {
  const role = input.messages[0]?.role ?? 'user'
  const label = role.charAt(0).toUpperCase() + role.slice(1)
  // The header and the "- User: " label are stripped afterwards: give the selection their room back.
  const allowance = countTokens(`Summary of 1 earlier message (extractive):\n- ${label}: `) - countTokens('')
  const raw = summarizeExtractive({
    messages: input.messages,
    targetTokens: input.targetTokens + Math.max(0, allowance),
    countTokens
  })
  return raw
    .split('\n')
    .filter((line) => !HEADER_PATTERN.test(line.trim()) && line.trim() !== '')
    .map((line) => line.replace(/^\s*-\s+[A-Z][A-Za-z]{1,20}:\s+/, ''))
    .join(' ')
}

/** The offline summarizer for both strategies: deterministic, no network. */
export function extractiveSummarizer(countTokens: CountTokens): Summarize {
  return (input) => {
    if (input.purpose === 'turn') return condenseTurn(input, countTokens)
    return summarizeExtractive({
      ...(input.previousSummary !== undefined ? { previousSummary: input.previousSummary } : {}),
      messages: input.messages,
      targetTokens: input.targetTokens,
      countTokens
    })
  }
}
