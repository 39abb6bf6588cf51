import type { ContextOverflow } from '../../providers/context-overflow'

/**
 * A server's count may run this far above the estimate (the estimate factors lean to the top of what
 * tokenizers need on English, UNKNOWN_COUNT_SCALE 1.25): a refusal that would need more is a window
 * smaller than the one set, not a count.
 */
export const PLAUSIBLE_COUNT_RATIO = 1.5
/** A window learned from a bare refusal is this share of what was refused (request and reply asked). */
const SHRINK = 0.9
/** No window is learned below this: a server that refuses less is not a chat model. */
const MIN_WINDOW = 256

export interface RefusalFacts {
  /** The refused request, counted here (the calibration's unit). */
  sentTokens: number
  /** The same, in the provider's tokens as the budget converts them. */
  sentProviderTokens: number
  /** The window the chat uses, and the reply it reserved in it. */
  window: number
  reservedOutput: number
  overflow: ContextOverflow
}

export interface RefusalLesson {
  /** The server's window, when the refusal shows it is smaller than the one set. */
  window?: number
  /** The provider's count of the request, where its numbers support one (for the calibration). */
  providerInput?: number
  /** What the user is told (with a learned window). */
  note?: string
}

/**
 * What a refusal "longer than the window" can honestly teach (issue 35): a refusal says the request
 * was too long for that server. The server's own count of the request, when it gives one, is a count;
 * the window it names, when smaller than the one set, is the server's window. A bare refusal is taken
 * as a count only as far as a tokenizer could differ (PLAUSIBLE_COUNT_RATIO); past that it says the
 * window is smaller than set. One absurd number never shrinks every chat of a model six-fold.
 */
export function refusalLesson(facts: RefusalFacts, label: string): RefusalLesson {
  const { overflow, window } = facts
  // A window the server names is compared with the window; a bare maximum input (Anthropic's "> M
  // maximum", Gemini's) with the room for input, and taken as the whole window: the safe side.
  const given =
    overflow.window !== undefined
      ? overflow.window < window
        ? overflow.window
        : undefined
      : overflow.maxInput !== undefined && overflow.maxInput < window - facts.reservedOutput
        ? overflow.maxInput
        : undefined
  const serverWindow = given !== undefined ? Math.max(MIN_WINDOW, given) : undefined
  const input = overflow.inputTokens
  if (serverWindow !== undefined) {
    return {
      window: serverWindow,
      ...(input !== undefined ? { providerInput: input } : {}),
      note: `The server refused a request as longer than ${label}'s window: it takes ${fmt(serverWindow)} tokens, not ${fmt(window)} as set. This chat now uses ${fmt(serverWindow)}; change it in the chat's settings.`
    }
  }
  if (input !== undefined) return { providerInput: input }
  // Bare: the server counted more than the room it has, which is the room set here unless it said otherwise.
  const implied = Math.ceil(((overflow.maxInput ?? window - facts.reservedOutput) + 1) * 1.1)
  if (implied <= facts.sentTokens * PLAUSIBLE_COUNT_RATIO) return { providerInput: implied }
  const learned = Math.max(MIN_WINDOW, Math.floor((facts.sentProviderTokens + facts.reservedOutput) * SHRINK))
  if (learned >= window) return {}
  return {
    window: learned,
    note: `The server refused a request of about ${fmt(facts.sentProviderTokens)} tokens as longer than ${label}'s window, which is set to ${fmt(window)}: its window looks smaller. This chat now uses ${fmt(learned)}; set the real window in the chat's settings.`
  }
}

const fmt = (n: number) => n.toLocaleString('en-US')
