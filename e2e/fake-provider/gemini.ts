import { attachmentsOf } from './attachments'
import { asArray, asRecord, textOf } from './reply'
import { sseData } from './sse'
import { type ChatAdapter, type ChatMessage, type ErrorKind, type Turn } from './types'

const GEMINI_STATUS: Record<ErrorKind, string> = {
  auth: 'UNAUTHENTICATED',
  rate_limit: 'RESOURCE_EXHAUSTED',
  server: 'INTERNAL',
  bad_request: 'INVALID_ARGUMENT',
  not_found: 'NOT_FOUND'
}

export function geminiError(kind: ErrorKind, message: string, status: number): unknown {
  return { error: { code: status, message, status: GEMINI_STATUS[kind] } }
}

/** systemInstruction + contents. countTokens may wrap them in generateContentRequest. */
export function geminiMessages(body: Record<string, unknown>): ChatMessage[] {
  const req = body.generateContentRequest ? asRecord(body.generateContentRequest) : body
  const messages: ChatMessage[] = []
  const system = textOf(asRecord(req.systemInstruction).parts)
  if (system) messages.push({ role: 'system', text: system })
  for (const raw of asArray(req.contents)) {
    const c = asRecord(raw)
    // Gemini calls the assistant "model"; a missing role means user.
    messages.push({
      role: typeof c.role === 'string' ? c.role : 'user',
      text: textOf(c.parts),
      attachments: attachmentsOf(c.parts)
    })
  }
  return messages
}

/** POST /v1beta/models/{model}:generateContent and :streamGenerateContent?alt=sse (model comes from the path). */
export const gemini: ChatAdapter = {
  provider: 'gemini',

  parse(body, model) {
    // `stream` is decided by the route, not the body.
    return { model: model ?? '', stream: false, includeUsage: true, messages: geminiMessages(body) }
  },

  json(turn) {
    return response(turn, turn.reply, true)
  },

  stream(turn) {
    // Real Gemini puts finishReason and the final usage on the last text chunk; there is no separate end event.
    const last = turn.chunks.length - 1
    return {
      head: [],
      chunks: turn.chunks.map((c, i) => [sseData(response(turn, c, i === last))]),
      tail: []
    }
  }
}

function response(turn: Turn, text: string, final: boolean) {
  // Like the real API, the cached count appears only when something was cached.
  const cached = turn.cache?.read ? { cachedContentTokenCount: turn.cache.read } : {}
  return {
    candidates: [
      { content: { parts: [{ text }], role: 'model' }, index: 0, ...(final ? { finishReason: 'STOP' } : {}) }
    ],
    usageMetadata: final
      ? {
          promptTokenCount: turn.inputTokens,
          ...cached,
          candidatesTokenCount: turn.outputTokens,
          totalTokenCount: turn.inputTokens + turn.outputTokens
        }
      : { promptTokenCount: turn.inputTokens, ...cached, totalTokenCount: turn.inputTokens },
    modelVersion: turn.model,
    responseId: turn.id
  }
}
