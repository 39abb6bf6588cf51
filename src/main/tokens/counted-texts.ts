import { LruCache } from './lru-cache'
import { textSegments } from './text-segments'

/** A long text counted once: where its segments end, and the tokens up to each end. */
export interface CountedText {
  text: string
  ends: number[]
  totals: number[]
}

const tokensOf = (c: CountedText) => c.totals.at(-1) ?? 0

/** Counts `text` segment by segment into `counted`, noting each segment's end and the running total; yields after each. */
function* countSteps(counted: CountedText, countSegment: (segment: string) => number): Generator<void> {
  let at = 0
  let n = 0
  for (const segment of textSegments(counted.text)) {
    n += countSegment(segment)
    at += segment.length
    counted.ends.push(at)
    counted.totals.push(n)
    yield
  }
}

export function countIndexed(text: string, countSegment: (segment: string) => number): CountedText {
  const counted: CountedText = { text, ends: [], totals: [] }
  for (const _ of countSteps(counted, countSegment));
  return counted
}

/** countIndexed in slices of at most `sliceMs`, with the event loop given back between them. */
export async function countIndexedInSlices(
  text: string,
  countSegment: (segment: string) => number,
  sliceMs: number
): Promise<CountedText> {
  const counted: CountedText = { text, ends: [], totals: [] }
  let sliceStart = performance.now()
  for (const _ of countSteps(counted, countSegment)) {
    if (performance.now() - sliceStart < sliceMs) continue
    await new Promise((resolve) => setImmediate(resolve))
    sliceStart = performance.now()
  }
  return counted
}

/** Characters compared at once before the one that differs is looked for (a million, one by one, took ~10 ms). */
const BLOCK = 4096

/** How many characters `a` and `b` share from their start, at most `max`. */
function sharedStart(a: string, b: string, max: number): number {
  let same = 0
  while (same + BLOCK <= max && a.slice(same, same + BLOCK) === b.slice(same, same + BLOCK)) same += BLOCK
  while (same < max && a.charCodeAt(same) === b.charCodeAt(same)) same++
  return same
}

/** How many characters `a` and `b` share at their end, at most `max`. */
function sharedEnd(a: string, b: string, max: number): number {
  let same = 0
  while (
    same + BLOCK <= max &&
    a.slice(a.length - same - BLOCK, a.length - same) === b.slice(b.length - same - BLOCK, b.length - same)
  )
    same += BLOCK
  while (same < max && a.charCodeAt(a.length - 1 - same) === b.charCodeAt(b.length - 1 - same)) same++
  return same
}

/**
 * Long texts already counted (by the string itself). Besides answering a text counted before, it
 * counts a text made mostly of a counted one's start and end (a message cut in the middle to fit the
 * window, tried at several sizes) by counting only what lies between them: the shared start and end
 * end where the counted text's segments end, which are piece boundaries, so the sum stays exact.
 */
export class CountedTexts {
  private readonly texts: LruCache<string, CountedText>
  constructor(maxTexts: number) {
    this.texts = new LruCache(maxTexts)
  }

  get(text: string): number | undefined {
    const hit = this.texts.get(text)
    return hit && tokensOf(hit)
  }

  add(counted: CountedText): number {
    this.texts.set(counted.text, counted)
    return tokensOf(counted)
  }

  clear(): void {
    this.texts.clear()
  }

  /** The count of `text` from a counted text it mostly shares, or undefined when none does. */
  reuse(text: string, countPart: (part: string) => number): number | undefined {
    for (const known of [...this.texts.values()]) {
      const a = known.text
      const shortest = Math.min(a.length, text.length)
      const same = sharedStart(a, text, shortest)
      const sameEnd = sharedEnd(a, text, shortest - same)
      if (same + sameEnd < text.length / 2) continue
      // The last segment end inside the shared start, and the first segment start inside the shared
      // end, each two characters clear of the difference (whether a piece starts depends on its
      // neighbours). The text's own start and end are no boundaries inside another text.
      const ends = known.ends
      let head = -1
      while (head + 2 < ends.length && ends[head + 1]! + 2 <= same) head++
      let tail = ends.length // segments tail… form the shared end; segment i starts at ends[i - 1]
      while (tail > 1 && ends[tail - 2]! - 2 >= a.length - sameEnd) tail--
      const headEnd = head >= 0 ? ends[head]! : 0
      const tailStart = tail < ends.length ? ends[tail - 1]! : a.length
      if (tailStart < headEnd) continue
      const tailLength = a.length - tailStart
      const headTokens = head >= 0 ? known.totals[head]! : 0
      const tailTokens = tokensOf(known) - (tail < ends.length ? known.totals[tail - 1]! : tokensOf(known))
      return headTokens + countPart(text.slice(headEnd, text.length - tailLength)) + tailTokens
    }
    return undefined
  }
}
