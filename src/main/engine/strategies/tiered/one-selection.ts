/**
 * The summarized tiers written again as one extractive selection. The escalation sizes each summary when
 * it is made (a topic ~200 tokens for ~25 messages, a bulk cascaded into the same few hundred tokens for
 * hundreds), so the archive ended up several times sparser than the latest topics, every part paid its
 * own header, and lines repeated across parts. The tiers still decide what is summarized and how much room
 * it takes together; one selection over their messages then spreads that room evenly, by what each part
 * holds, with a single header and no line twice (LoCoMo dev, docs/quality.md "Tiered and importance").
 */
import { summarizeExtractive } from '../../extractive/summarize-extractive'
import type { CountTokens, EngineMessage } from '../../types'
import { summaryInput } from './actions'
import type { TieredConfig } from './config'
import type { TieredContextItem } from './types'

const summarized = (i: TieredContextItem) => i.kind === 'bulk' || i.kind === 'topic-summary'

/**
 * The leading bulks and topic summaries of `items` as one text of at most the tokens their rendering
 * takes (`render` joins them as the summary does), or undefined when there are fewer than two of them.
 * `messages` are the whole history (with stated days), oldest first.
 */
export function oneSelection(options: {
  items: readonly TieredContextItem[]
  messages: readonly EngineMessage[]
  countTokens: CountTokens
  config: TieredConfig
  title: (item: TieredContextItem) => string
  render: (items: readonly TieredContextItem[]) => string
}): { text: string; count: number } | undefined {
  const { items, countTokens } = options
  const end = items.findIndex((i) => !summarized(i))
  const parts = items.slice(0, end < 0 ? items.length : end)
  if (parts.length < 2) return undefined
  const first = parts[0]!.firstSeq
  const last = parts.at(-1)!.lastSeq
  const covered = options.messages.filter((m) => m.seq >= first && m.seq <= last)
  const sections = parts.map((p) => ({
    start: Math.max(
      0,
      covered.findIndex((m) => m.seq >= p.firstSeq)
    ),
    title: options.title(p)
  }))
  const room = countTokens(options.render(parts))
  const text = summarizeExtractive({
    messages: summaryInput(covered, options.config),
    sections,
    targetTokens: room,
    countTokens
  })
  // Never more than the parts it replaces (the selection checks its own total; this is the contract).
  return text !== '' && countTokens(text) <= room ? { text, count: parts.length } : undefined
}
