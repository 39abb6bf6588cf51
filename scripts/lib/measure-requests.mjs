/**
 * What a run of chat requests costs, measured from the wire bodies the fake provider recorded
 * (GET /__requests), for `npm run bench:cost` (scripts/bench-cost.mjs).
 *
 * Tokens use the fake provider's own estimate (e2e/fake-provider/reply.ts): a request is
 * 3 + Σ over its messages (ceil(chars / 4) + 3), the system prompt counting as a message, so the
 * prefix and ideal figures here are in the same unit as the `inputTokens` the fake reports.
 */

/** Distill's summarization requests start their system prompt with this (src/main/engine/prompts.ts). */
export const SUMMARY_PROMPT_START = 'You are a conversation summarization assistant.'
/** A cached input token is billed at this share of an uncached one. */
export const CACHED_RATE = 0.1
/** An input token written to the cache (Anthropic) is billed at this multiple. */
export const WRITE_RATE = 1.25

const REQUEST_OVERHEAD = 3
const MESSAGE_OVERHEAD = 3

/** Any content shape (string, parts array) as the fake flattens it: text parts joined by newlines. */
export function textOf(value) {
  if (value == null) return ''
  if (typeof value === 'string') return value
  if (Array.isArray(value))
    return value
      .filter((v) => !(v && typeof v === 'object' && !('text' in v) && ('image_url' in v || 'source' in v)))
      .map(textOf)
      .filter((t) => t.length > 0)
      .join('\n')
  if (typeof value === 'object') {
    if (typeof value.text === 'string') return value.text
    if ('content' in value) return textOf(value.content)
    return JSON.stringify(value)
  }
  return String(value)
}

/**
 * A generation request's messages in the order the model reads them: the top-level system prompt
 * (Anthropic) first, then the messages, each as role and text (cache_control markers ignored).
 */
export function canonicalMessages(body) {
  const b = body && typeof body === 'object' ? body : {}
  const out = []
  const system = textOf(b.system)
  if (system) out.push({ role: 'system', text: system })
  for (const m of Array.isArray(b.messages) ? b.messages : []) {
    out.push({
      role: String(m?.role ?? ''),
      text: textOf(m?.content) || (m?.tool_calls ? JSON.stringify(m.tool_calls) : '')
    })
  }
  return out
}

export const messageTokens = (m) => Math.ceil(m.text.length / 4) + MESSAGE_OVERHEAD

/** The fake's estimate of a whole request. */
export function requestTokens(messages) {
  return messages.reduce((sum, m) => sum + messageTokens(m), REQUEST_OVERHEAD)
}

/** A summary asked inside the chat's own request ends with a user message that starts so (src/main/engine/prompts.ts). */
export const IN_CHAT_SUMMARY_START = '[Distill: summary request, not a message to answer]'

export function isSummaryRequest(messages) {
  const last = messages.at(-1)
  return (
    messages.some((m) => m.role === 'system' && m.text.trimStart().startsWith(SUMMARY_PROMPT_START)) ||
    (last?.role === 'user' && last.text.startsWith(IN_CHAT_SUMMARY_START))
  )
}

/**
 * Tokens at the start of `next` that repeat `prev` exactly: every whole message in common, plus
 * floor(chars / 4) of the first one that is only partly shared (same role, common leading text).
 * 0 when nothing is shared.
 */
export function sharedPrefixTokens(prev, next) {
  if (!prev || prev.length === 0 || next.length === 0) return 0
  let tokens = REQUEST_OVERHEAD
  let shared = false
  for (let i = 0; i < Math.min(prev.length, next.length); i++) {
    const a = prev[i]
    const b = next[i]
    if (a.role !== b.role) break
    if (a.text === b.text) {
      tokens += messageTokens(b)
      shared = true
      continue
    }
    let n = 0
    const max = Math.min(a.text.length, b.text.length)
    while (n < max && a.text.charCodeAt(n) === b.text.charCodeAt(n)) n++
    if (n > 0) {
      tokens += Math.floor(n / 4)
      shared = true
    }
    break
  }
  return shared ? tokens : 0
}

/** The append-only ideal's cached part: everything before the request's last two messages. */
export function idealCachedTokens(messages) {
  if (messages.length <= 2) return 0
  return requestTokens(messages.slice(0, -2))
}

const num = (x) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined)

/**
 * Measures one run's recorded requests (the fake's GET /__requests, title requests already apart).
 * Only generation requests count (OpenAI chat completions and Anthropic messages; model lists and
 * token counts are free). Reply requests are billed with their cached part at 0.1× (the fake's
 * `cache.read` when it reports one, else the prefix shared with the previous reply request);
 * summary requests, and any other generation request, are billed with what the fake reports its
 * cache served at 0.1× (a summary asked inside the chat's request), the rest whole.
 */
export function measureRequests(recorded, { turns = 0, inputPrice } = {}) {
  const generation = recorded.filter(
    (r) => r && r.method === 'POST' && (r.provider === 'openai-chat' || r.provider === 'anthropic')
  )
  const counts = recorded.filter((r) => r && /count-tokens$/.test(String(r.provider ?? ''))).length
  const m = {
    requests: 0,
    replyRequests: 0,
    summaryRequests: 0,
    otherRequests: 0,
    failedRequests: 0,
    countRequests: counts,
    inputTokens: 0,
    replyInputTokens: 0,
    summaryInputTokens: 0,
    otherInputTokens: 0,
    prefixTokens: 0,
    idealCachedTokens: 0,
    /** Σ cache.read over requests that report one; null when none does (the fake has no cache accounting). */
    cacheReadTokens: null,
    cacheWriteTokens: null,
    /** Reply requests whose cached part came from the fake's report rather than the prefix measure. */
    reportedCacheRequests: 0,
    cachedTokens: 0,
    billed: 0,
    billedWithWrites: 0,
    /** Billed, each request at its model's input price in the chat model's input tokens (a cheaper summarization model costs less). */
    pricedBilled: 0,
    idealBilled: 0,
    largestRequest: 0,
    turns,
    perRequest: []
  }
  let prev
  /** The chat's model: the one reply requests name; a request to another model is weighed by its input price against it. */
  const chatModel = generation.find((r) => !isSummaryRequest(canonicalMessages(r.body)))?.body?.model
  const weightOf = (model) => {
    const base = inputPrice?.(chatModel)
    const own = inputPrice?.(model)
    return base && own !== undefined ? own / base : 1
  }
  for (const r of generation) {
    const messages = canonicalMessages(r.body)
    const estimate = requestTokens(messages)
    const total = num(r.inputTokens) ?? estimate
    const cache = r.cache && typeof r.cache === 'object' ? r.cache : undefined
    const read = num(cache?.read)
    const write = num(cache?.write)
    if (read !== undefined) m.cacheReadTokens = (m.cacheReadTokens ?? 0) + read
    if (write !== undefined) m.cacheWriteTokens = (m.cacheWriteTokens ?? 0) + write
    m.requests++
    m.inputTokens += total
    m.largestRequest = Math.max(m.largestRequest, total)
    if (r.outcome !== 'ok') m.failedRequests++
    const kind = isSummaryRequest(messages)
      ? 'summary'
      : messages.some((x) => x.role === 'system' && /^Write a short title/.test(x.text.trimStart()))
        ? 'other'
        : 'reply'
    const row = { seq: r.seq, kind, messages: messages.length, input: total, estimate, read, write }
    if (kind === 'reply') {
      const prefix = Math.min(total, sharedPrefixTokens(prev, messages))
      const ideal = Math.min(total, idealCachedTokens(messages))
      const cached = Math.min(total, read ?? prefix)
      if (read !== undefined) m.reportedCacheRequests++
      m.replyRequests++
      m.replyInputTokens += total
      m.prefixTokens += prefix
      m.idealCachedTokens += ideal
      m.cachedTokens += cached
      const billed = total - cached + CACHED_RATE * cached
      m.billed += billed
      m.pricedBilled += billed * weightOf(r.body?.model)
      m.billedWithWrites += billed + (WRITE_RATE - 1) * (write ?? 0)
      m.idealBilled += total - ideal + CACHED_RATE * ideal
      Object.assign(row, { prefix, ideal, cached })
      prev = messages
    } else {
      // What the fake reports its cache served is billed as cached (a summary asked inside the chat's request).
      const cached = Math.min(total, read ?? 0)
      if (kind === 'summary') {
        m.summaryRequests++
        m.summaryInputTokens += total
      } else {
        m.otherRequests++
        m.otherInputTokens += total
      }
      const billed = total - cached + CACHED_RATE * cached
      m.billed += billed
      m.pricedBilled += billed * weightOf(r.body?.model)
      m.billedWithWrites += billed + (WRITE_RATE - 1) * (write ?? 0)
      if (cached) Object.assign(row, { cached })
      if (r.body?.model !== chatModel) row.model = r.body?.model
    }
    m.perRequest.push(row)
  }
  m.prefixShare = m.replyInputTokens ? m.prefixTokens / m.replyInputTokens : null
  m.cacheShare = m.cacheReadTokens !== null && m.inputTokens ? m.cacheReadTokens / m.inputTokens : null
  m.billedOverIdeal = m.idealBilled ? m.billed / m.idealBilled : null
  m.pricedOverIdeal = m.idealBilled ? m.pricedBilled / m.idealBilled : null
  m.summariesPer100Turns = turns ? (100 * m.summaryRequests) / turns : null
  return m
}

/** Sums measurements of several runs (conversations) into one row. */
export function addMeasurements(list) {
  const keys = [
    'requests',
    'replyRequests',
    'summaryRequests',
    'otherRequests',
    'failedRequests',
    'countRequests',
    'inputTokens',
    'replyInputTokens',
    'summaryInputTokens',
    'otherInputTokens',
    'prefixTokens',
    'idealCachedTokens',
    'reportedCacheRequests',
    'cachedTokens',
    'billed',
    'billedWithWrites',
    'pricedBilled',
    'idealBilled',
    'turns'
  ]
  const m = Object.fromEntries(keys.map((k) => [k, list.reduce((s, x) => s + (x[k] ?? 0), 0)]))
  const nullable = (k) =>
    list.some((x) => x[k] !== null && x[k] !== undefined) ? list.reduce((s, x) => s + (x[k] ?? 0), 0) : null
  m.cacheReadTokens = nullable('cacheReadTokens')
  m.cacheWriteTokens = nullable('cacheWriteTokens')
  m.largestRequest = Math.max(0, ...list.map((x) => x.largestRequest ?? 0))
  m.prefixShare = m.replyInputTokens ? m.prefixTokens / m.replyInputTokens : null
  m.cacheShare = m.cacheReadTokens !== null && m.inputTokens ? m.cacheReadTokens / m.inputTokens : null
  m.billedOverIdeal = m.idealBilled ? m.billed / m.idealBilled : null
  m.pricedOverIdeal = m.idealBilled ? m.pricedBilled / m.idealBilled : null
  m.summariesPer100Turns = m.turns ? (100 * m.summaryRequests) / m.turns : null
  return m
}

/** Input prices (USD per million tokens) by model id, from the app's catalog (src/main/models/catalog.json). */
export function catalogInputPrices(catalog) {
  const prices = new Map()
  for (const m of catalog.models ?? [])
    if (typeof m.pricePerMTokInput === 'number') prices.set(m.id, m.pricePerMTokInput)
  return (model) => prices.get(model)
}
