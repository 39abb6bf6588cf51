/**
 * The fake's prompt cache: prefixes it has seen, per partition (provider, model and, for OpenAI,
 * prompt_cache_key), each alive until its lifetime of inactivity runs out on an injectable clock.
 *
 * Prefix lengths are in the units of the usage estimate (reply.ts): a prompt is a head (3 tokens,
 * the tools' identity) then one segment per message (ceil(chars/4) + 3), so no prefix can ever
 * count more than the whole prompt.
 */

/** One unit of a prompt for implicit (OpenAI/Gemini) prefix matching. */
export interface Segment {
  /** What must match exactly before the text can share a prefix: role, attachments, tools. */
  meta: string
  text: string
  /** The segment's whole share of the estimate. */
  tokens: number
}

interface Node {
  segment: Segment
  expiresAt: number
  children: Map<string, Node>
}

interface Written {
  expiresAt: number
  ttlMs: number
}

export const FIVE_MINUTES = 5 * 60_000
export const ONE_HOUR = 60 * 60_000
/** Smallest prefix any of the three providers caches. */
export const MIN_CACHED_TOKENS = 1024

const keyOf = (s: Segment) => `${s.meta}\u0000${s.text}`

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/**
 * What an implicit cache reports for a matched prefix of `tokens`: nothing under 1024, and OpenAI
 * counts whole 128-token blocks only.
 */
export function implicitCachedTokens(rule: 'openai' | 'gemini', tokens: number): number {
  if (tokens < MIN_CACHED_TOKENS) return 0
  return rule === 'openai' ? tokens - (tokens % 128) : tokens
}

export class PromptCache {
  private offset = 0
  /** Implicit caches: a trie of segments; a node lives as long as the longest-lived prompt through it. */
  private tries = new Map<string, Node>()
  /** Explicit (Anthropic) caches: exact prefixes by hash, written only at breakpoints. */
  private written = new Map<string, Map<string, Written>>()

  constructor(private readonly clock: () => number = Date.now) {}

  now(): number {
    return this.clock() + this.offset
  }

  /** Moves the cache's clock forward, e.g. to let an idle chat's prefixes expire. */
  advance(ms: number): void {
    this.offset += ms
  }

  clear(): void {
    this.tries.clear()
    this.written.clear()
  }

  /**
   * The longest prefix (whole segments, then floor(common chars / 4) of the first differing one)
   * shared with a still-alive earlier prompt; then remembers this prompt for `ttlMs`, which also
   * refreshes the matched prefix.
   */
  matchAndStore(partition: string, segments: Segment[], ttlMs: number): number {
    const now = this.now()
    let node: Node = this.tries.get(partition) ?? {
      segment: { meta: '', text: '', tokens: 0 },
      expiresAt: Infinity,
      children: new Map<string, Node>()
    }
    this.tries.set(partition, node)
    let tokens = 0
    let matching = true
    for (const segment of segments) {
      const key = keyOf(segment)
      let child: Node | undefined = node.children.get(key)
      if (child && child.expiresAt <= now) {
        node.children.delete(key)
        child = undefined
      }
      if (matching && child) {
        tokens += segment.tokens
      } else if (matching) {
        matching = false
        let common = 0
        for (const [k, other] of node.children) {
          if (other.expiresAt <= now) node.children.delete(k)
          else if (other.segment.meta === segment.meta)
            common = Math.max(common, commonPrefixLength(other.segment.text, segment.text))
        }
        tokens += Math.floor(common / 4)
      }
      if (!child) {
        child = { segment, expiresAt: 0, children: new Map() }
        node.children.set(key, child)
      }
      child.expiresAt = Math.max(child.expiresAt, now + ttlMs)
      node = child
    }
    return tokens
  }

  /** Whether this exact prefix was written and is still alive. */
  has(partition: string, hash: string): boolean {
    const entry = this.written.get(partition)?.get(hash)
    return entry !== undefined && entry.expiresAt > this.now()
  }

  /** A read restarts the prefix's lifetime. */
  refresh(partition: string, hash: string): void {
    const entry = this.written.get(partition)?.get(hash)
    if (entry) entry.expiresAt = Math.max(entry.expiresAt, this.now() + entry.ttlMs)
  }

  write(partition: string, hash: string, ttlMs: number): void {
    let entries = this.written.get(partition)
    if (!entries) this.written.set(partition, (entries = new Map()))
    const now = this.now()
    // Long benchmark runs write a lot; sweep the dead once the map grows.
    if (entries.size > 10_000) for (const [h, e] of entries) if (e.expiresAt <= now) entries.delete(h)
    const old = entries.get(hash)
    const ttl = Math.max(ttlMs, old && old.expiresAt > now ? old.ttlMs : 0)
    entries.set(hash, { ttlMs: ttl, expiresAt: Math.max(now + ttlMs, old?.expiresAt ?? 0) })
  }
}
