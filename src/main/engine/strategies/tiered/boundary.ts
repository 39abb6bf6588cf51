/**
 * ADR 033 topic boundaries: an explicit phrase, a silence, or the current topic growing past its
 * threshold. (The fourth, the user's "New topic" action, is sealCurrentTopic.) Only a user message can
 * open a topic: a reply or a tool result always stays with the question it answers.
 */
import type { EngineMessage } from '../../types'
import type { TieredConfig } from './config'
import type { BoundaryReason } from './types'

/** Phrases that switch topics wherever they stand in the opening of a message. */
const ANYWHERE = [
  'new topic',
  'change of topic',
  'change of subject',
  'change the subject',
  'changing the subject',
  'changing topics?',
  'switch(?:ing)? topics?',
  'switch(?:ing)? gears',
  'shift(?:ing)? gears',
  'on (?:an)?other note',
  'on a (?:different|separate|related|unrelated) note',
  "let'?s move on",
  'let us move on',
  "let'?s talk about something else",
  'something completely different',
  'unrelated question',
  'unrelated to (?:that|this|the above)',
  'totally unrelated',
  'completely unrelated'
]

/** Phrases that switch topics only when a sentence starts with them ("Different question: …"). */
const SENTENCE_START = [
  '(?:a |one )?(?:different|separate|new|unrelated|quick unrelated) (?:question|topic|subject)',
  'moving on',
  'next topic',
  'next question',
  'now for something (?:completely )?different',
  'back to something else',
  'anyway,? (?:different|new|unrelated|another) (?:question|topic)',
  'unrelated,? but',
  'also unrelated'
]

/** Words a message may open with before the phrase ("OK, thanks! Switching gears…"). */
const FILLER =
  '(?:(?:ok(?:ay)?|alright|all right|right|thanks|thank you|great|cool|perfect|nice|got it|so|well|anyway|now|hmm+|hey|hi|hello|btw|also|and|but|good)[\\s,.!;:—-]*)*'

const anywhere = new RegExp(`\\b(?:${ANYWHERE.join('|')})\\b`, 'i')
const atStart = new RegExp(`^${FILLER}(?:${SENTENCE_START.join('|')})\\b`, 'i')

/** The opening of a message: a phrase buried in paragraph six is a quotation, not a switch. */
const OPENING_CHARS = 280

export function hasTopicPhrase(text: string): boolean {
  const opening = text.slice(0, OPENING_CHARS)
  if (anywhere.test(opening)) return true
  // Every sentence of the opening may start with a switching phrase.
  for (const sentence of opening.split(/(?<=[.!?…])\s+|\n+/)) {
    if (atStart.test(sentence.trim())) return true
  }
  return false
}

export interface BoundaryInput {
  message: EngineMessage
  /** The latest message of the current topic; none when the topic is empty. */
  previous?: EngineMessage
  /** Tokens the current topic takes in the context now (see topicTokens). */
  currentTopicTokens: number
  /** The current topic's allocation: its share of the history budget, in tokens. */
  allocation: number
  config: TieredConfig
}

export interface BoundaryDecision {
  boundary: boolean
  reason?: BoundaryReason
}

export function isTopicBoundary(input: BoundaryInput): BoundaryDecision {
  const { message, previous, config } = input
  if (!previous) return { boundary: false }
  if (message.role !== 'user' || (message.toolResultIds?.length ?? 0) > 0) return { boundary: false }
  if (hasTopicPhrase(message.text)) return { boundary: true, reason: 'phrase' }
  const silenceMs = config.topicBoundary.silenceMinutes * 60_000
  if (silenceMs > 0 && message.createdAt - previous.createdAt > silenceMs) return { boundary: true, reason: 'silence' }
  if (input.allocation > 0 && input.currentTopicTokens > config.topicBoundary.tokenThreshold * input.allocation) {
    return { boundary: true, reason: 'size' }
  }
  return { boundary: false }
}
