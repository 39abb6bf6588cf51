/**
 * What each tier costs in the context, and the context itself in chronological order. Reads stored
 * counts only: nothing here re-tokenizes.
 */
import type { EngineMessage } from '../../types'
import type { Bulk, TieredContextItem, TieredState, Tier, Topic } from './types'

/** A message as the model is shown it: its truncated view when it was cut. */
export function shown(topic: Topic, m: EngineMessage): { text: string; tokens: number; truncatedChars?: number } {
  const t = topic.truncated?.[m.id]
  return t ? { text: t.text, tokens: t.tokens, truncatedChars: t.removedChars } : { text: m.text, tokens: m.tokens }
}

/** Index range of the messages the topic still shows verbatim in its middle. */
export function uncoveredMiddle(topic: Topic): { from: number; to: number } {
  // messages[0] is the first, messages[n-1] the last; attention covers 1..covered.
  return { from: 1 + (topic.attention?.covered ?? 0), to: topic.messages.length - 1 }
}

function messageItem(topic: Topic, m: EngineMessage): TieredContextItem {
  const s = shown(topic, m)
  return {
    kind: 'message',
    role: m.role,
    text: s.text,
    tokens: s.tokens,
    sourceIds: [m.id],
    firstSeq: m.seq,
    lastSeq: m.seq,
    groupId: topic.id,
    ...(s.truncatedChars !== undefined ? { truncatedChars: s.truncatedChars } : {})
  }
}

/** A topic as the context shows it: its summary once summarized, else first, attention summary, rest, last. */
export function topicItems(topic: Topic): TieredContextItem[] {
  const msgs = topic.messages
  if (msgs.length === 0) return []
  if (topic.summary !== undefined) {
    if (topic.summary === '') return []
    return [
      {
        kind: 'topic-summary',
        role: 'system',
        text: topic.summary,
        tokens: topic.summaryTokens ?? 0,
        sourceIds: msgs.map((m) => m.id),
        firstSeq: topic.firstSeq,
        lastSeq: topic.lastSeq,
        groupId: topic.id
      }
    ]
  }
  const items: TieredContextItem[] = []
  // A message cut to nothing (only when the budget cannot even hold it) is left out.
  const push = (m: EngineMessage) => {
    const item = messageItem(topic, m)
    if (item.text !== '' || m.text === '') items.push(item)
  }
  push(msgs[0]!)
  const att = topic.attention
  if (att && att.covered > 0 && att.text !== '') {
    const covered = msgs.slice(1, 1 + att.covered)
    items.push({
      kind: 'attention',
      role: 'system',
      text: att.text,
      tokens: att.tokens,
      sourceIds: covered.map((m) => m.id),
      firstSeq: covered[0]?.seq ?? topic.firstSeq,
      lastSeq: covered.at(-1)?.seq ?? topic.firstSeq,
      groupId: topic.id
    })
  }
  const { from, to } = uncoveredMiddle(topic)
  for (let i = from; i < to; i++) push(msgs[i]!)
  if (msgs.length > 1) push(msgs[msgs.length - 1]!)
  return items
}

function bulkItem(b: Bulk): TieredContextItem[] {
  if (b.summary === '') return []
  return [
    {
      kind: 'bulk',
      role: 'system',
      text: b.summary,
      tokens: b.tokens,
      sourceIds: [...b.topicIds],
      firstSeq: b.firstSeq,
      lastSeq: b.lastSeq,
      groupId: b.id
    }
  ]
}

/**
 * The tiered context, oldest first: bulk archives, historical topics (summaries, or their messages
 * while unsummarized), then the current topic. The service feeds it to buildContext.
 */
export function getTieredContext(state: TieredState): TieredContextItem[] {
  return [...state.bulks.flatMap(bulkItem), ...state.topics.flatMap(topicItems), ...topicItems(state.current)]
}

export const sumTokens = (items: readonly { tokens: number }[]) => items.reduce((s, i) => s + i.tokens, 0)

export function topicTokens(topic: Topic): number {
  return sumTokens(topicItems(topic))
}

export function tierUsage(state: TieredState): Record<Tier, number> & { total: number } {
  const current = topicTokens(state.current)
  const topics = state.topics.reduce((s, t) => s + topicTokens(t), 0)
  const bulks = state.bulks.reduce((s, b) => s + (b.summary === '' ? 0 : b.tokens), 0)
  return { current, topics, bulks, total: current + topics + bulks }
}

export const tieredTokens = (state: TieredState) => tierUsage(state).total

/** A topic as transcript lines, for merging an unsummarized topic into a bulk. */
export function topicText(topic: Topic): string {
  if (topic.summary !== undefined) return topic.summary
  const label = (role: string) => role.charAt(0).toUpperCase() + role.slice(1)
  return topicItems(topic)
    .map((i) => (i.kind === 'message' ? `- ${label(i.role)}: ${i.text.replace(/\s*\n\s*/g, ' ')}` : i.text))
    .join('\n')
}
