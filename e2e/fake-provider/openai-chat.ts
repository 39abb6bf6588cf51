import { attachmentsOf } from './attachments'
import { asArray, asRecord, textOf } from './reply'
import { sseData } from './sse'
import { type ChatAdapter, type ErrorKind, type Turn } from './types'

const OPENAI_ERROR: Record<ErrorKind, { type: string; code: string | null }> = {
  auth: { type: 'invalid_request_error', code: 'invalid_api_key' },
  rate_limit: { type: 'requests', code: 'rate_limit_exceeded' },
  server: { type: 'server_error', code: null },
  bad_request: { type: 'invalid_request_error', code: null },
  not_found: { type: 'invalid_request_error', code: 'unknown_url' }
}

/** OpenAI's error envelope; also used for the Responses API, /models and OpenAI-compatible servers. */
export function openaiError(kind: ErrorKind, message: string): unknown {
  return { error: { message, ...OPENAI_ERROR[kind], param: null } }
}

/** POST /v1/chat/completions — also what @ai-sdk/openai-compatible calls. */
export const openaiChat: ChatAdapter = {
  provider: 'openai-chat',

  parse(body) {
    return {
      model: String(body.model ?? ''),
      stream: body.stream === true,
      includeUsage: asRecord(body.stream_options).include_usage === true,
      messages: asArray(body.messages).map((raw) => {
        const m = asRecord(raw)
        const text = textOf(m.content) || (m.tool_calls ? JSON.stringify(m.tool_calls) : '')
        return { role: String(m.role ?? ''), text, attachments: attachmentsOf(m.content) }
      })
    }
  },

  json(turn) {
    return {
      id: `chatcmpl-${turn.id}`,
      object: 'chat.completion',
      created: turn.created,
      model: turn.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: turn.reply, refusal: null },
          logprobs: null,
          finish_reason: 'stop'
        }
      ],
      usage: usageOf(turn),
      system_fingerprint: null
    }
  },

  stream(turn) {
    const chunk = (delta: object, finish: string | null) => ({
      id: `chatcmpl-${turn.id}`,
      object: 'chat.completion.chunk',
      created: turn.created,
      model: turn.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }]
    })
    const tail = [sseData(chunk({}, 'stop'))]
    // Real OpenAI sends usage in an extra chunk with empty choices, only when asked.
    if (turn.includeUsage) {
      tail.push(
        sseData({
          id: `chatcmpl-${turn.id}`,
          object: 'chat.completion.chunk',
          created: turn.created,
          model: turn.model,
          choices: [],
          usage: usageOf(turn)
        })
      )
    }
    tail.push('data: [DONE]\n\n')
    return {
      head: [sseData(chunk({ role: 'assistant', content: '' }, null))],
      chunks: turn.chunks.map((c) => [sseData(chunk({ content: c }, null))]),
      tail
    }
  }
}

function usageOf(turn: Turn) {
  return {
    prompt_tokens: turn.inputTokens,
    completion_tokens: turn.outputTokens,
    total_tokens: turn.inputTokens + turn.outputTokens,
    // Real OpenAI always details the cached part; OpenAI-compatible servers without a cache don't.
    ...(turn.cache ? { prompt_tokens_details: { cached_tokens: turn.cache.read } } : {})
  }
}
