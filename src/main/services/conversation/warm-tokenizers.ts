import { warmEncoder, type EncodingName } from '../../tokens/encoders'

/** Every encoding the catalog's models count with: OpenAI's own, and cl100k for the estimates. */
const ENCODINGS: readonly EncodingName[] = ['o200k_base', 'cl100k_base']

/**
 * Loads the tokenizers a model switch needs while the app opens, before it serves anything: loading
 * one is a single 100–250 ms stretch that cannot be split. Inside the first request after a switch it
 * stalled that request; on a timer after opening it stalled whatever the user (or a client) was doing
 * a second after start. At open it only makes the start that much longer.
 */
export function warmTokenizers(): void {
  for (const name of ENCODINGS) warmEncoder(name)
}
