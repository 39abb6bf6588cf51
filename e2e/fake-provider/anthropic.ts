import { attachmentsOf } from './attachments'
import { asArray, asRecord, textOf } from './reply'
import { sseEvent } from './sse'
import { type ChatAdapter, type ChatMessage, type ErrorKind, type Turn } from './types'

const ANTHROPIC_ERROR_TYPE: Record<ErrorKind, string> = {
  auth: 'authentication_error',
  rate_limit: 'rate_limit_error',
  server: 'api_error',
  bad_request: 'invalid_request_error',
  not_found: 'not_found_error'
}

export function anthropicError(kind: ErrorKind, message: string): unknown {
  return { type: 'error', error: { type: ANTHROPIC_ERROR_TYPE[kind], message } }
}

/** System prompt + messages; shared by /v1/messages and /v1/messages/count_tokens. */
export function anthropicMessages(body: Record<string, unknown>): ChatMessage[] {
  const messages: ChatMessage[] = []
  const system = textOf(body.system)
  if (system) messages.push({ role: 'system', text: system })
  for (const raw of asArray(body.messages)) {
    const m = asRecord(raw)
    messages.push({ role: String(m.role ?? ''), text: textOf(m.content), attachments: attachmentsOf(m.content) })
  }
  return messages
}

/** POST /v1/messages. */
export const anthropic: ChatAdapter = {
  provider: 'anthropic',

  parse(body) {
    return {
      model: String(body.model ?? ''),
      stream: body.stream === true,
      includeUsage: true,
      messages: anthropicMessages(body)
    }
  },

  json(turn) {
    return {
      ...message(turn),
      content: [{ type: 'text', text: turn.reply }],
      stop_reason: 'end_turn',
      usage: { ...inputUsage(turn), output_tokens: turn.outputTokens }
    }
  },

  stream(turn) {
    return {
      head: [
        // Input tokens arrive up front, output tokens in message_delta — as with the real API.
        sseEvent('message_start', {
          type: 'message_start',
          message: { ...message(turn), usage: { ...inputUsage(turn), output_tokens: 1 } }
        }),
        sseEvent('content_block_start', {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' }
        }),
        sseEvent('ping', { type: 'ping' })
      ],
      chunks: turn.chunks.map((text) => [
        sseEvent('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })
      ]),
      tail: [
        sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 }),
        sseEvent('message_delta', {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: turn.outputTokens }
        }),
        sseEvent('message_stop', { type: 'message_stop' })
      ]
    }
  }
}

/** Anthropic splits the input: input_tokens is only what was neither read from nor written to the cache. */
function inputUsage(turn: Turn) {
  const read = turn.cache?.read ?? 0
  const write = turn.cache?.write ?? 0
  const write1h = turn.cache?.write1h ?? 0
  return {
    input_tokens: turn.inputTokens - read - write,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: write - write1h, ephemeral_1h_input_tokens: write1h }
  }
}

function message(turn: Turn) {
  return {
    id: `msg_${turn.id}`,
    type: 'message',
    role: 'assistant',
    model: turn.model,
    content: [] as unknown[],
    stop_reason: null as string | null,
    stop_sequence: null
  }
}
