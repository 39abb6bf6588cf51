import { warmEncoder, type EncodingName } from '../../tokens/encoders'

/** Every encoding the catalog's models count with: OpenAI's own, and cl100k for the estimates. */
const ENCODINGS: readonly EncodingName[] = ['o200k_base', 'cl100k_base']

/**
 * Loads the tokenizers a model switch needs, all at once: loading one is a single 100–250 ms stretch
 * that cannot be split, so inside the first request after a switch it stalled that request. The
 * benches that time an open call this through createApp's `warmTokenizers`; the desktop app and
 * browser mode serve first and load them one at a time once the first page is served
 * (tokenizerWarmSteps, warm-when-quiet.ts).
 */
export function warmTokenizers(): void {
  for (const step of tokenizerWarmSteps()) step()
}

/** One step an encoding, for a warm-up that gives the event loop back between them. */
export function tokenizerWarmSteps(): Array<() => void> {
  return ENCODINGS.map((name) => () => warmEncoder(name))
}
