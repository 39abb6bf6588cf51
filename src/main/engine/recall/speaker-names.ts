/**
 * Who a name in a message is. In a chat the two people are roles (user, assistant), and a person
 * rarely writes their own name: the other side writes it, addressing them ("Thanks, Caroline!").
 * So a name that one side addresses is the other side, and a question about that person is about
 * that side's own messages, which the name itself would not find.
 */
import type { EngineRole } from '../types'

/** Words written with a capital past the start of a sentence: the names a message may use. */
export function nameCandidates(text: string): string[] {
  const out: string[] = []
  const t = text.normalize('NFKC')
  for (const m of t.matchAll(/(?<![\p{L}\p{N}'’])\p{Lu}\p{L}+/gu)) {
    // At the start of a sentence any word has a capital.
    const before = t.slice(0, m.index).trimEnd()
    if (before === '' || /[.!?:"“]$/.test(before)) continue
    const name = m[0].toLowerCase()
    if (!out.includes(name)) out.push(name)
  }
  return out
}

/** How the chat's messages address people: the name set off by punctuation, or after a greeting. */
function addressPattern(name: string): RegExp {
  const n = name.replace(/[^\p{L}]/gu, '')
  return new RegExp(
    `(?:^|[,.!?;:]\\s*|\\b(?:hi|hey|hello|hiya|thanks|thank you|dear|bye|congrats|congratulations|morning|evening|yo|wow|oh)[,!]?\\s+)${n}\\s*(?:[,!?.;:]|$)`,
    'iu'
  )
}

/** How many of each side's messages address `name`. */
export function addressCounts(
  name: string,
  messages: ReadonlyArray<{ role: EngineRole; text: string }>
): { user: number; assistant: number } {
  const re = addressPattern(name)
  const counts = { user: 0, assistant: 0 }
  for (const m of messages) if ((m.role === 'user' || m.role === 'assistant') && re.test(m.text)) counts[m.role]++
  return counts
}

/** A side must address a name this many times, and this much more than the other side does. */
export const MIN_ADDRESSES = 2
export const ADDRESS_MAJORITY = 0.8

/** The role a name is, from how each side addresses it: the side it is addressed by is the other one. */
export function roleOfName(counts: { user: number; assistant: number }): 'user' | 'assistant' | undefined {
  const total = counts.user + counts.assistant
  if (total < MIN_ADDRESSES) return undefined
  if (counts.assistant >= total * ADDRESS_MAJORITY) return 'user'
  if (counts.user >= total * ADDRESS_MAJORITY) return 'assistant'
  return undefined
}
