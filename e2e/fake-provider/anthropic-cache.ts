import { createHash } from 'node:crypto'
import { attachmentOf } from './attachments'
import { FIVE_MINUTES, MIN_CACHED_TOKENS, ONE_HOUR, type PromptCache } from './prompt-cache'
import { asArray, asRecord, textOf } from './reply'

/** One block boundary of an Anthropic request, in the API's cache order: tools, system, messages. */
export interface CacheBlock {
  /** Identity of the whole prefix up to and including this block (cache_control left out). */
  hash: string
  /** Estimate units of that prefix (see prompt-cache.ts). */
  tokens: number
  /** Set on a breakpoint: the lifetime its cache_control asks for. */
  ttlMs?: number
}

export const MAX_BREAKPOINTS = 4
/** How many block boundaries before a breakpoint the API checks for an earlier write. */
const LOOKBACK = 20

function ttlOf(block: Record<string, unknown>): number | undefined {
  const control = asRecord(block.cache_control)
  if (control.type !== 'ephemeral') return undefined
  return control.ttl === '1h' ? ONE_HOUR : FIVE_MINUTES
}

/**
 * The request's block boundaries. A prefix ending inside a message counts floor(chars so far / 4)
 * of it, one ending on its last block the message's whole estimate, matching estimateInputTokens
 * over anthropicMessages (an empty system prompt counts nothing, an empty message 3).
 */
export function anthropicCacheBlocks(body: Record<string, unknown>): CacheBlock[] {
  const blocks: CacheBlock[] = []
  let chain = ''
  let base = 3
  const extend = (part: string) => (chain = createHash('sha256').update(chain).update(part).digest('hex'))
  const segment = (kind: string, rawBlocks: unknown[], countsWhenEmpty: boolean) => {
    extend(`\u0001${kind}`)
    let chars = 0
    let texts = 0
    rawBlocks.forEach((raw, i) => {
      const block = asRecord(raw)
      const { cache_control: _ignored, ...identity } = block
      extend(JSON.stringify(identity))
      // textOf joins a message's non-empty texts with '\n', leaving out images and files.
      const text = attachmentOf(block) === null ? textOf(block) : ''
      if (text) chars += (texts++ > 0 ? 1 : 0) + text.length
      const last = i === rawBlocks.length - 1
      const whole = chars > 0 || countsWhenEmpty ? Math.ceil(chars / 4) + 3 : 0
      blocks.push({ hash: chain, tokens: base + (last ? whole : Math.floor(chars / 4)), ttlMs: ttlOf(block) })
    })
    base += chars > 0 || countsWhenEmpty ? Math.ceil(chars / 4) + 3 : 0
  }
  for (const tool of asArray(body.tools)) {
    const t = asRecord(tool)
    const { cache_control: _ignored, ...identity } = t
    extend(`\u0001tool${JSON.stringify(identity)}`)
    blocks.push({ hash: chain, tokens: base, ttlMs: ttlOf(t) })
  }
  const blocksOf = (content: unknown) =>
    typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content)
  if (body.system !== undefined) segment('system', blocksOf(body.system), false)
  for (const raw of asArray(body.messages)) {
    const m = asRecord(raw)
    segment(`message:${String(m.role ?? '')}`, blocksOf(m.content), true)
  }
  return blocks
}

export interface AnthropicCacheUsage {
  /** cache_read_input_tokens. */
  read: number
  /** cache_creation_input_tokens, of which `write1h` at a 1-hour ttl. */
  write: number
  write1h: number
}

/**
 * Anthropic's explicit caching: each breakpoint checks its own boundary and up to 20 before it for
 * a prefix written earlier (the longest hit is read); the prefix up to every breakpoint of at
 * least 1024 tokens is written, and what lies between the read and the last breakpoint is billed as
 * the write. `scale` turns estimate units into the server's reported tokens.
 */
export function anthropicCacheUsage(
  blocks: CacheBlock[],
  cache: PromptCache,
  partition: string,
  scale: (tokens: number) => number
): AnthropicCacheUsage {
  const breakpoints = blocks.flatMap((b, i) => (b.ttlMs === undefined ? [] : [i]))
  let hit = -1
  for (const bp of breakpoints) {
    for (let i = bp; i >= Math.max(0, bp - LOOKBACK) && i > hit; i--) {
      if (cache.has(partition, blocks[i]!.hash)) {
        hit = i
        break
      }
    }
  }
  if (hit >= 0) cache.refresh(partition, blocks[hit]!.hash)
  const read = hit < 0 ? 0 : scale(blocks[hit]!.tokens)
  let from = read
  let write = 0
  let write1h = 0
  const last = breakpoints.at(-1)
  if (last !== undefined && scale(blocks[last]!.tokens) >= MIN_CACHED_TOKENS) {
    for (const bp of breakpoints) {
      const block = blocks[bp]!
      const tokens = scale(block.tokens)
      if (tokens < MIN_CACHED_TOKENS) continue
      cache.write(partition, block.hash, block.ttlMs!)
      if (tokens <= from) continue
      write += tokens - from
      if (block.ttlMs === ONE_HOUR) write1h += tokens - from
      from = tokens
    }
  }
  return { read, write, write1h }
}
