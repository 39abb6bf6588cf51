import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { GptEncoding } from 'gpt-tokenizer/GptEncoding'
import type { get_encoding as getEncoding, Tiktoken } from 'tiktoken'
import { countIndexed, countIndexedInSlices, CountedTexts } from './counted-texts'
import { textSegments } from './text-segments'
import { readTiktokenRanks } from './tiktoken-ranks'

export type EncodingName = 'o200k_base' | 'cl100k_base'

/** A loaded BPE encoding: counts plain text. */
export interface Encoder {
  /** Tokens in `text`, special tokens such as '<|endoftext|>' counted as the text they are. */
  count(text: string): number
  /** The same count, made in slices of a few milliseconds that give the event loop back between them. */
  countSliced(text: string): Promise<number>
  /** Drops the encoder's caches; the encoder must not be used afterwards. */
  free(): void
}

/** Texts this long are counted in slices by countTextTokensAsync, and their counts remembered. */
export const SLICED_MIN = 16_384
/** The longest a slice of counting holds the event loop (DESIGN §12: stalls under 50 ms). */
const SLICE_MS = 8
const REMEMBERED_TEXTS = 16

function countSegments(text: string, count: (segment: string) => number): number {
  let n = 0
  for (const segment of textSegments(text)) n += count(segment)
  return n
}

// gpt-tokenizer (pure JS) gives the same counts as tiktoken's WASM on every fixture and the LoCoMo
// conversations, several times faster with less memory (docs/decisions.md, "Counted with gpt-tokenizer").
// One exception: its split regex uses JavaScript's \s, which includes U+FEFF and leaves out U+0085,
// unlike the Unicode White_Space of tiktoken's Rust regex, so text holding either character is
// counted by tiktoken, loaded only when such text first appears. Rank tables are large, so each
// encoding is read on first use (or at open: warmEncoder) rather than with the module.
const load = createRequire(import.meta.url)
const JS_ONLY_WHITESPACE = /[\u0085\ufeff]/
/** The package's own `.tiktoken` files, beside the code it runs (data/ next to cjs/). */
const ranksFile = (name: EncodingName) =>
  join(dirname(load.resolve('gpt-tokenizer/GptEncoding')), '..', 'data', `${name}.tiktoken`)
// With no special token disallowed and none allowed, '<|endoftext|>' typed by a user is text, the
// way the chat API treats it (tiktoken's encode_ordinary), instead of throwing like the default.
const ORDINARY = { disallowedSpecial: new Set<string>() }

function buildEncoder(name: EncodingName): Encoder {
  const { GptEncoding: Gpt } = load('gpt-tokenizer/GptEncoding') as { GptEncoding: typeof GptEncoding }
  const ranks = readTiktokenRanks(ranksFile(name))
  let api: GptEncoding | undefined = Gpt.getEncodingApi(name, () => ranks as never)
  let tiktoken: Tiktoken | undefined
  let freed = false
  const countSegment = (text: string): number => {
    if (freed || !api) throw new Error(`the ${name} encoder was freed`)
    if (!JS_ONLY_WHITESPACE.test(text)) return api.countTokens(text, ORDINARY)
    tiktoken ??= (load('tiktoken') as { get_encoding: typeof getEncoding }).get_encoding(name)
    return tiktoken.encode_ordinary(text).length
  }
  // Long texts counted once are remembered, so a count made in slices off the request path
  // (countTextTokensAsync) is not repeated by the synchronous callers that follow it, and a message
  // cut in the middle to fit the window costs only the part around the cut (counted-texts.ts).
  const remembered = new CountedTexts(REMEMBERED_TEXTS)
  const countShort = (text: string) => countSegments(text, countSegment)
  return {
    // Both libraries are quadratic in the length of one piece: long runs are cut first (text-segments.ts).
    count: (text) => {
      if (text.length < SLICED_MIN) return countShort(text)
      return (
        remembered.get(text) ?? remembered.reuse(text, countShort) ?? remembered.add(countIndexed(text, countSegment))
      )
    },
    async countSliced(text) {
      const known = remembered.get(text)
      if (known !== undefined) return known
      return remembered.add(await countIndexedInSlices(text, countSegment, SLICE_MS))
    },
    free: () => {
      freed = true
      remembered.clear()
      api?.clearMergeCache()
      api = undefined
      tiktoken?.free() // WASM memory is not garbage-collected
      tiktoken = undefined
    }
  }
}

// One instance per encoding lives for the process. freeEncoders() releases them (the next count
// reads the table again, as after a restart).
const encoders = new Map<EncodingName, Encoder>()

export function getEncoder(name: EncodingName): Encoder {
  let enc = encoders.get(name)
  if (!enc) {
    enc = buildEncoder(name)
    encoders.set(name, enc)
  }
  return enc
}

/**
 * Loads an encoding now (its rank table and lookup maps: 50–300 ms), so that the first count after
 * a switch to a model that uses it does not pay for it in the middle of a request.
 */
export function warmEncoder(name: EncodingName): void {
  // A first count too: the encoder's code runs cold the first time (22 ms of a first request).
  getEncoder(name).count('Warm up: the first count of a process, with words, numbers (12,345) and code() {}.')
}

/** Tokens in plain text, as the chat API counts a message's content. */
export function countTextTokens(text: string, encoding: EncodingName): number {
  return text.length === 0 ? 0 : getEncoder(encoding).count(text)
}

/**
 * countTextTokens for user input of any size: a long text is counted in slices between which
 * other requests are answered, and the count is remembered for the synchronous callers after it.
 */
export async function countTextTokensAsync(text: string, encoding: EncodingName): Promise<number> {
  if (text.length < SLICED_MIN) return countTextTokens(text, encoding)
  return getEncoder(encoding).countSliced(text)
}

export function freeEncoders(): void {
  for (const enc of encoders.values()) enc.free()
  encoders.clear()
}
