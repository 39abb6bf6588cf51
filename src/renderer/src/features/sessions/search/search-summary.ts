import type { SessionSearch, SessionSearchResult } from '../../../../../shared/contract/sessions'

const plural = (n: number, one: string, many: string, more: boolean) =>
  `${n.toLocaleString()}${more ? '+' : ''} ${n === 1 && !more ? one : many}`

/**
 * "12 matches in 5 chats": the matching messages, which the chats' own counts add up to; "and 1
 * title" when titles matched too (highlighted, not counted as a message); "+" when a common word's
 * older matches were not counted.
 */
export function searchSummary({
  matches,
  titleMatches: titles,
  chats,
  countIsLowerBound: more
}: Pick<SessionSearch, 'matches' | 'titleMatches' | 'chats' | 'countIsLowerBound'>): string {
  const inChats = `in ${plural(chats, 'chat', 'chats', more)}`
  const titleCount = plural(titles, 'title', 'titles', false)
  if (matches === 0 && titles > 0) return `${titleCount} ${titles === 1 ? 'matches' : 'match'}`
  return `${plural(matches, 'match', 'matches', more)}${titles > 0 ? ` and ${titleCount}` : ''} ${inChats}`
}

/** "2 more in this chat" under a chat's passages when it matches more often than they show; else null. */
export function moreNote({
  count,
  countIsLowerBound,
  passages
}: Pick<SessionSearchResult, 'count' | 'countIsLowerBound' | 'passages'>): string | null {
  const more = count - passages.length
  if (more <= 0 || passages.length === 0) return null
  return `${more}${countIsLowerBound ? '+' : ''} more in this chat`
}

/**
 * Under the results when they leave chats out: more chats matched than are listed, or a common word
 * was ranked over its newest matches only, so older chats may hold it too. Null when all are listed.
 */
export function moreChatsNote(
  { chats, countIsLowerBound: more }: Pick<SessionSearch, 'chats' | 'countIsLowerBound'>,
  shown: number
): string | null {
  const narrow = 'Type more words to narrow the search.'
  if (more) return `Showing ${plural(shown, 'chat', 'chats', false)}; more may match. ${narrow}`
  return chats > shown ? `Showing the best ${shown.toLocaleString()} chats. ${narrow}` : null
}
