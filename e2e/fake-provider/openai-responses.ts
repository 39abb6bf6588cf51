import { attachmentsOf } from './attachments'
import { asArray, asRecord, textOf } from './reply'
import { sseEvent } from './sse'
import { type ChatAdapter, type ChatMessage, type Turn } from './types'

/**
 * POST /v1/responses — what `openai(model)` / `openai.responses(model)` call.
 * Emits the event sequence @ai-sdk/openai parses (output_item.added → text-start,
 * output_text.delta → text-delta, output_item.done → text-end, response.completed → usage).
 * content_part.* and response.in_progress are real-API events the SDK ignores; kept for fidelity.
 */
export const openaiResponses: ChatAdapter = {
  provider: 'openai-responses',

  parse(body) {
    const messages: ChatMessage[] = []
    if (typeof body.instructions === 'string') messages.push({ role: 'system', text: body.instructions })
    if (typeof body.input === 'string') {
      messages.push({ role: 'user', text: body.input })
    } else {
      for (const raw of asArray(body.input)) {
        const item = asRecord(raw)
        // Items without a role are tool calls/results; count them but never treat them as the user's text.
        const role = typeof item.role === 'string' ? item.role : String(item.type ?? 'item')
        const text = 'content' in item ? textOf(item.content) : textOf(item.output ?? item.arguments ?? item)
        messages.push({ role, text, attachments: attachmentsOf(item.content) })
      }
    }
    return { model: String(body.model ?? ''), stream: body.stream === true, includeUsage: true, messages }
  },

  json(turn) {
    return {
      ...responseObject(turn, 'completed'),
      output: [messageItem(turn, 'completed', turn.reply)],
      usage: usageOf(turn)
    }
  },

  stream(turn) {
    let seq = 0
    const ev = (type: string, data: object) => sseEvent(type, { type, sequence_number: seq++, ...data })
    const itemId = `msg_${turn.id}`
    const part = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] })
    const where = { item_id: itemId, output_index: 0, content_index: 0 }
    const head = [
      ev('response.created', { response: responseObject(turn, 'in_progress') }),
      ev('response.in_progress', { response: responseObject(turn, 'in_progress') }),
      ev('response.output_item.added', {
        output_index: 0,
        item: { ...messageItem(turn, 'in_progress', null), content: [] }
      }),
      ev('response.content_part.added', { ...where, part: part('') })
    ]
    // Frames are built in emission order so sequence_number increases like the real API's.
    const chunks = turn.chunks.map((c) => [ev('response.output_text.delta', { ...where, delta: c, logprobs: [] })])
    const tail = [
      ev('response.output_text.done', { ...where, text: turn.reply, logprobs: [] }),
      ev('response.content_part.done', { ...where, part: part(turn.reply) }),
      ev('response.output_item.done', { output_index: 0, item: messageItem(turn, 'completed', turn.reply) }),
      ev('response.completed', {
        response: {
          ...responseObject(turn, 'completed'),
          output: [messageItem(turn, 'completed', turn.reply)],
          usage: usageOf(turn)
        }
      })
    ]
    return { head, chunks, tail }
  }
}

function responseObject(turn: Turn, status: string) {
  return {
    id: `resp_${turn.id}`,
    object: 'response',
    created_at: turn.created,
    status,
    error: null,
    incomplete_details: null,
    model: turn.model,
    output: [] as unknown[],
    usage: null as unknown
  }
}

function messageItem(turn: Turn, status: string, text: string | null) {
  return {
    type: 'message',
    id: `msg_${turn.id}`,
    status,
    role: 'assistant',
    content: text == null ? [] : [{ type: 'output_text', text, annotations: [], logprobs: [] }]
  }
}

function usageOf(turn: Turn) {
  return {
    input_tokens: turn.inputTokens,
    input_tokens_details: { cached_tokens: turn.cache?.read ?? 0 },
    output_tokens: turn.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: turn.inputTokens + turn.outputTokens
  }
}
