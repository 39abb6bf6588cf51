/**
 * The information floor shared by the summarizers, the strategies and Recall: a sentence (or a
 * message) "says nothing" when, once the social part of chat is set aside — greetings, thanks,
 * goodbyes, agreement, praise and feelings about what the other person said, intensifiers, hedges and
 * discourse markers — no content word, name or number is left. Such text is never worth a line of a
 * summary, a recalled passage, or a search.
 *
 * And the note form of a sentence: the same sentence without those parts, so a summary line holds the
 * facts in fewer tokens and still reads as a sentence.
 */
import { STOPWORDS } from './terms'

/**
 * Words that carry no fact in any chat: the vocabulary of greeting, thanking, parting, agreeing,
 * reacting and feeling about what was said, of intensifying and hedging, and the generic words such
 * talk is built from ("time", "day", "chat"). A sentence made of these and function words says nothing.
 */
const SOCIAL_WORDS = new Set(
  (
    'hi hello hey hiya yo howdy greetings morning afternoon evening night bye goodbye farewell cya later soon ' +
    'thanks thank thx ty cheers appreciate appreciated appreciating grateful thankful welcome sorry apologies ' +
    'congrats congratulations kudos bravo yay hooray wow whoa woah oh ah aw aww awww ooh hmm hm um uh ugh phew yikes ' +
    'haha hahaha lol lmao omg gosh yeah yep yup yes nope nah ok okay alright sure ' +
    'true totally definitely absolutely exactly indeed agreed agree right correct certainly surely ' +
    'really very so super truly quite pretty much many lot lots bit little kinda sorta basically literally ' +
    'honestly actually seriously genuinely simply anyway anyways btw meanwhile though however ' +
    'guess suppose reckon mean seems seem seemed sounds sound sounded looks look ' +
    'wish hope hoping hoped wait care luck ' +
    'chat chatting talk talking talked catch caught keep posted update updated updates touch ' +
    'time times day days moment moments forever ages while ' +
    'means meant help helped helps helpful support supportive kind kindness words share sharing shared ' +
    'friend buddy pal dear mate thing stuff everything anything something ' +
    'yours mine ours same too also again ever always never'
  ).split(/\s+/)
)
/**
 * Words of praise and feeling: a sentence of only these says nothing ("That's amazing!"), but said of
 * an event they are what it was like ("…, and it was so powerful"), which people ask about.
 */
const FEELING_WORDS = new Set(
  (
    'cool nice great good awesome amazing wonderful fantastic incredible lovely sweet perfect neat fabulous terrific ' +
    'brilliant excellent superb beautiful gorgeous stunning cute adorable fun funny exciting excited thrilled glad ' +
    'happy pleased proud inspiring inspired inspiration impressive impressed epic blast special touching ' +
    'heartwarming powerful rewarding meaningful enlightening fulfilling magical tough hard rough sad bummer shame ' +
    'feel felt feeling feelings love loved loving like liked enjoy enjoyed'
  ).split(/\s+/)
)

/** Whole phrases of chat small talk whose words may be content elsewhere ("the offer", "any time"). */
const PHATIC_PHRASES =
  /\b(?:(?:thanks?|thank you|appreciate)(?: so much| a lot)?(?: for)?(?: the| your)? (?:offer|advice|tips?|suggestions?|input|kind words|encouragement|reminder|question)|any ?time|sure thing|no (?:problem|worries)|take care|have a (?:good|great|nice|lovely) (?:one|day|night|evening|weekend|week|time)|see (?:you|ya)(?: later| soon| around)?|talk (?:to you )?(?:soon|later)|catch (?:you|ya) later|bye for now|how(?:'s| is| are| have) (?:it going|you|things|life)(?: been| doing)?|what about you|how about you|what'?s (?:up|new)|long time no (?:see|talk)|keep (?:me|you|ya) (?:posted|updated|in the loop)|keep (?:on )?(?:going|pushing|working|trying|moving|fighting|growing|learning|shining|smiling|rocking|it up|at it|up the good work)(?: (?:forward|hard|ahead|on))?|(?:so )?much (?:has )?happened|(?:it )?seems like (?:forever|ages)|(?:it'?s )?been (?:a while|ages|forever|too long)|since (?:we|i) (?:last )?(?:spoke|talked|chatted|caught up|saw each other|last (?:spoke|talked|chatted))|means? (?:a lot|the world)|let me know|feel free|you got this|good luck|here for you|(?:i'?m|i am) always here)\b/gi

/** A name set off as an address ("Thanks, Anna!", "Hey Mel,"): not a fact about anyone. */
const VOCATIVE =
  /(?:^|[,.!?;:]\s*|\b(?:hi|hey|hello|hiya|thanks|thank you|dear|bye|congrats|yo)[,!]?\s+)\p{Lu}\p{Ll}+(?=\s*[!?.,;:]|\s*$)/gu

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu

/**
 * The words of a text that could be a fact: not function words, not small talk, not a name used to
 * address someone; with `feelings`, words of praise and feeling count as content, with `addresses`,
 * names set off by commas do. Lower-cased, in order,
 * without repeats.
 */
export function informationWords(text: string, options: { feelings?: boolean; addresses?: boolean } = {}): string[] {
  const social = text.normalize('NFKC').replace(PHATIC_PHRASES, ' ')
  // A clause cut from its sentence (", Jean,") looks like an address; its caller keeps names then.
  return wordsOf(options.addresses ? social : social.replace(VOCATIVE, ' '), options)
}

/** The words of a text that are neither function words nor small talk, up to `limit` of them. */
function wordsOf(stripped: string, options: { feelings?: boolean }, limit = Infinity): string[] {
  const feelings = options.feelings ?? false
  const out: string[] = []
  for (const m of stripped.matchAll(WORD)) {
    if (out.length >= limit) break
    const w = m[0].toLowerCase().replace(/['’](?:s|re|ve|ll|d|m|t)$/, '')
    if (w.length < 2 && !/\d/.test(w)) continue
    if (
      STOPWORDS.has(w) ||
      STOPWORDS.has(m[0].toLowerCase()) ||
      SOCIAL_WORDS.has(w) ||
      (!feelings && FEELING_WORDS.has(w)) ||
      out.includes(w)
    )
      continue
    out.push(w)
  }
  return out
}

/** True when a text holds no content word, name or number beyond small talk (the information floor). */
export function saysNothing(text: string): boolean {
  // Most sentences have several content words even before stock phrases and addresses are set aside:
  // the phrase patterns run only on the short ones, which keeps the floor cheap on long chats.
  const words = wordsOf(text, {}, 5)
  if (words.length === 0) return true
  if (words.length >= 5) return false
  return informationWords(text).length === 0
}

/** Interjections and discourse markers that open a chat sentence ("Oh, …", "Yeah! …", "By the way, …"). */
const OPENER =
  /^(?:(?:oh|wow|whoa|yeah|yes|yep|yup|ha(?:ha)+|lol|hey|hmm+|um+|ah+|aw+|well|ok(?:ay)?|so|honestly|totally|definitely|sure|omg|anyway|btw|by the way|actually|and|but|plus|also|guess what|you know what|fun fact)\s*[,!:.…-]*\s+)+/i
/** Hedges and intensifiers that change no fact ("I think", "really", "totally", "kind of"). */
const FILLER =
  /\s*\b(?:i (?:think|guess|believe|feel like|mean|reckon)(?: that)?|(?<=,\s?)you know(?=[,.!?]|$)|kind of|sort of|kinda|sorta|to be honest|honestly|actually|basically|literally|seriously|really|totally|truly|definitely|absolutely|super(?= \w+(?:ly|ful|ing|ed|ous|ive|able|al|y)\b)|pretty(?= \w+(?:ly|ful|ing|ed|ous|ive|able|al|y)\b)|just(?= \w+ed\b)|btw|by the way)\b,?/gi
/** A clause boundary a note may cut at: a dash, a semicolon, a comma, or "and it was …". */
const CLAUSE =
  /(\s+[-–—]+\s+|;\s+|,\s+|,?\s+(?:and|but)\s+(?=(?:it|that|this|they|everyone|everybody)(?:'s|’s| was| is| were| are| felt| feels| made)\b))/

/** A clause of small talk: nothing but function words and at least one word or phrase of chat. */
function smallTalk(clause: string): boolean {
  if (informationWords(clause, { feelings: true, addresses: true }).length > 0) return false
  PHATIC_PHRASES.lastIndex = 0
  if (PHATIC_PHRASES.test(clause)) return true
  for (const m of clause.matchAll(WORD)) if (SOCIAL_WORDS.has(m[0].toLowerCase())) return true
  return false
}

/** Fillers a note does without wherever they stand. */
const NOTE_FILLER =
  /\b(?:(?:so|very)(?= (?!that\b|as\b|far\b|long\b|many\b|much\b)[a-z])|such(?= an? )|just(?= [a-z])|even(?= (?!if\b|though\b|when\b|more\b|less\b|better\b|worse\b|after\b|before\b)[a-z]))\s+/g
/** The writer as the subject at the start: the line's label already says who. */
const OWN_SUBJECT: Array<[RegExp, string]> = [
  [/^I'm\s+/, ''],
  [/^I am\s+/, ''],
  [/^I've\s+/, ''],
  [/^I'll\s+/, 'will '],
  [/^I'd\s+/, 'would '],
  [/^I\s+(?=[a-z])/, '']
]

/**
 * Note style, as a person takes notes: without the writer's own "I" at the start (the line's label
 * says who), and without "so", "such", "just", "even", "very"; quoted titles stay as written.
 */
function telegraphic(text: string): string {
  let out = text
  for (const [re, by] of OWN_SUBJECT) {
    if (re.test(out)) {
      out = out.replace(re, by)
      break
    }
  }
  // Outside quotes only: "Just Kids" is a title.
  out = out
    .split(/("[^"]*"|“[^”]*”)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(NOTE_FILLER, '')))
    .join('')
  return out.charAt(0).toUpperCase() + out.slice(1)
}

/**
 * The note form of a sentence: without its opening interjection, hedges, intensifiers and the clauses
 * that say nothing ("…, and it was so powerful", "So much has happened since we last spoke - …").
 * Names, numbers, dates, places, objects and who did what stay, in the writer's own words.
 * Returns the sentence unchanged when nothing would be left.
 */
export function noteOf(sentence: string): string {
  let text = sentence.replace(/\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*/gu, '').trim()
  text = text.replace(OPENER, '')
  const parts = text.split(CLAUSE)
  // parts alternate clause, boundary, clause, …: keep a clause with content, and the boundary before it.
  let out = ''
  for (let i = 0; i < parts.length; i += 2) {
    const clause = parts[i] ?? ''
    if (smallTalk(clause)) continue
    out += out === '' ? clause : `${parts[i - 1] ?? ' '}${clause}`
  }
  if (out === '') return sentence
  out = out
    .replace(FILLER, '')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.!?;:])/g, '$1')
    .replace(/[,;:]+([.!?])/g, '$1')
    .replace(/([!?.])[!?.]+/g, '$1')
    .replace(/^[\s,;:–—-]+|[\s,;:–—-]+$/g, '')
    .trim()
  out = telegraphic(out)
  if (out.length < 8) return sentence
  if (!/[.!?…"']$/.test(out)) out += '.'
  return out.charAt(0).toUpperCase() + out.slice(1)
}
