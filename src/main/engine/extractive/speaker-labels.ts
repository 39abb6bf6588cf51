/**
 * Who the two sides of a chat are, by name, when the chat itself says so: a person rarely writes
 * their own name, the other side does, addressing them ("Thanks, Caroline!"). A summary then says
 * "Caroline: …" rather than "User: …", and its header keeps the names for the next cascade.
 */
import { roleOfName } from '../recall/speaker-names'

export interface SpeakerNames {
  user?: string
  assistant?: string
}

/** A capitalised word set off as an address: after a greeting or thanks, or between punctuation. */
const GREETINGS = [
  'hi',
  'hey',
  'hello',
  'hiya',
  'thanks',
  'thank you',
  'dear',
  'bye',
  'congrats',
  'congratulations',
  'morning',
  'evening',
  'yo'
]
  // Either case for the greeting's first letter; the name itself must be capitalised.
  .map((g) => `[${g[0]!.toUpperCase()}${g[0]}]${g.slice(1)}`)
  .join('|')
const ADDRESS = new RegExp(
  `(?:^|[,.!?;:]\\s*|\\b(?:${GREETINGS})[,!]?\\s+)(\\p{Lu}\\p{Ll}{1,20})(?=\\s*[!?.,;:]|\\s*$)`,
  'gu'
)
const NOT_NAMES = new Set([
  'I',
  'Yes',
  'No',
  'Ok',
  'Okay',
  'Thanks',
  'Sure',
  'Great',
  'Wow',
  'Oh',
  'Hey',
  'Hi',
  'Hello',
  'Bye',
  'Cheers',
  'Congrats',
  'Awesome',
  'Cool',
  'Nice',
  'Right',
  'Well',
  'Anyway',
  'Yeah',
  'Haha',
  'Lol',
  'Omg',
  'Agreed',
  'Totally',
  'Definitely',
  'Absolutely',
  'Exactly',
  'Indeed',
  'Thank',
  'Sorry'
])

/** The names each side is addressed by, from the messages; a word the chat also writes in lower case is not a name. */
export function speakerNames(messages: ReadonlyArray<{ role: string; text: string }>): SpeakerNames {
  const counts = new Map<string, { user: number; assistant: number }>()
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue
    const seen = new Set<string>()
    for (const match of m.text.matchAll(ADDRESS)) {
      const name = match[1]!
      if (NOT_NAMES.has(name) || seen.has(name)) continue
      seen.add(name)
      const c = counts.get(name) ?? { user: 0, assistant: 0 }
      c[m.role]++
      counts.set(name, c)
    }
  }
  const best: Record<'user' | 'assistant', { name: string; n: number } | undefined> = {
    user: undefined,
    assistant: undefined
  }
  for (const [name, c] of counts) {
    const role = roleOfName(c)
    if (!role) continue
    const n = c.user + c.assistant
    const lower = new RegExp(`\\b${name.toLowerCase()}\\b`)
    if (messages.some((m) => lower.test(m.text))) continue
    const current = best[role]
    if (!current || n > current.n || (n === current.n && name < current.name)) best[role] = { name, n }
  }
  const user = best.user?.name
  const assistant = best.assistant?.name
  return user === assistant ? {} : { ...(user ? { user } : {}), ...(assistant ? { assistant } : {}) }
}

/** The header's mention of the names, so the next cascade keeps them: `; user: Caroline, assistant: Melanie`. */
export function namesNote(names: SpeakerNames): string {
  const parts = [
    names.user ? `user: ${names.user}` : '',
    names.assistant ? `assistant: ${names.assistant}` : ''
  ].filter(Boolean)
  return parts.length ? `; ${parts.join(', ')}` : ''
}

/** The names a summary's header recorded. */
export function namesFromHeader(header: string): SpeakerNames {
  const user = /[;,]\s*user: (\p{Lu}\p{Ll}{1,20})\b/u.exec(header)?.[1]
  const assistant = /[;,]\s*assistant: (\p{Lu}\p{Ll}{1,20})\b/u.exec(header)?.[1]
  return { ...(user ? { user } : {}), ...(assistant ? { assistant } : {}) }
}
