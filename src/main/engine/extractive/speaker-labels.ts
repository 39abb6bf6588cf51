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
/**
 * Group 1 is set when the word opens a sentence ("Understood. …", "Mel, …"): there any word has a
 * capital and a stock reply opener looks just like a name, so it counts only for a name the chat
 * also addresses mid-sentence or after a greeting ("Hi Caroline", "Thanks, Melanie!").
 */
const ADDRESS = new RegExp(
  `(?:(^|[.!?]\\s*)|[,;:]\\s*|\\b(?:${GREETINGS})[,!]?\\s+)(\\p{Lu}\\p{Ll}{1,20})(?=\\s*[!?.,;:]|\\s*$)`,
  'gu'
)
/** Words that open or make up a reply by themselves ("Sure, …", "Noted.") and are nobody's name. */
const NOT_NAMES = new Set([
  'I',
  'Yes',
  'No',
  'Ok',
  'Okay',
  'Alright',
  'Thanks',
  'Thank',
  'Sure',
  'Certainly',
  'Understood',
  'Noted',
  'Done',
  'Gotcha',
  'Roger',
  'Right',
  'Correct',
  'True',
  'Agreed',
  'Exactly',
  'Precisely',
  'Indeed',
  'Absolutely',
  'Definitely',
  'Totally',
  'Great',
  'Good',
  'Fine',
  'Perfect',
  'Excellent',
  'Wonderful',
  'Awesome',
  'Cool',
  'Nice',
  'Wow',
  'Oh',
  'Ah',
  'Hmm',
  'Well',
  'So',
  'Anyway',
  'Yeah',
  'Yep',
  'Yup',
  'Nope',
  'Haha',
  'Lol',
  'Omg',
  'Hey',
  'Hi',
  'Hello',
  'Bye',
  'Cheers',
  'Congrats',
  'Sorry',
  'Apologies',
  'Please'
])

/** The names each side is addressed by, from the messages; a word the chat also writes in lower case is not a name. */
export function speakerNames(messages: ReadonlyArray<{ role: string; text: string }>): SpeakerNames {
  const counts = new Map<string, { user: number; assistant: number; addressed: boolean }>()
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue
    const seen = new Set<string>()
    for (const match of m.text.matchAll(ADDRESS)) {
      const name = match[2]!
      if (NOT_NAMES.has(name)) continue
      const c = counts.get(name) ?? { user: 0, assistant: 0, addressed: false }
      if (match[1] === undefined) c.addressed = true
      if (!seen.has(name)) c[m.role]++
      seen.add(name)
      counts.set(name, c)
    }
  }
  const best: Record<'user' | 'assistant', { name: string; n: number } | undefined> = {
    user: undefined,
    assistant: undefined
  }
  for (const [name, c] of counts) {
    if (!c.addressed) continue
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

/** What a summary's header recorded for each side, whether a name or not. */
function recorded(header: string): Record<'user' | 'assistant', string | undefined> {
  return {
    user: /[;,]\s*user: (\p{Lu}\p{Ll}{1,20})\b/u.exec(header)?.[1],
    assistant: /[;,]\s*assistant: (\p{Lu}\p{Ll}{1,20})\b/u.exec(header)?.[1]
  }
}

/** The names a summary's header recorded; a stock opener an earlier version took for a name is none. */
export function namesFromHeader(header: string): SpeakerNames {
  const { user, assistant } = recorded(header)
  return {
    ...(user && !NOT_NAMES.has(user) ? { user } : {}),
    ...(assistant && !NOT_NAMES.has(assistant) ? { assistant } : {})
  }
}

/** The stock openers a header recorded as names (`user: Understood`), by side: its lines so labelled are that side's. */
export function openersFromHeader(header: string): Map<string, 'user' | 'assistant'> {
  const out = new Map<string, 'user' | 'assistant'>()
  for (const [role, word] of Object.entries(recorded(header)) as Array<['user' | 'assistant', string | undefined]>)
    if (word && NOT_NAMES.has(word)) out.set(word, role)
  return out
}
