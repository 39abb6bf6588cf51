import { z } from 'zod'
import type { MessagePart, MessageRole } from '../../shared/domain/chat-message'
import { withoutControlCharacters } from '../../shared/domain/chat-message'

/** One message in OpenAI's chat format, as people export and paste them. */
const contentPartSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }).loose(),
  z.object({ type: z.string() }).loose()
])

const openAIMessageSchema = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: z.union([z.string(), z.array(contentPartSchema), z.null()]).optional(),
    name: z.string().optional(),
    tool_calls: z
      .array(
        z
          .object({
            id: z.string(),
            type: z.literal('function').optional(),
            function: z.object({ name: z.string(), arguments: z.string() }).loose()
          })
          .loose()
      )
      .optional(),
    tool_call_id: z.string().optional()
  })
  .loose()

export interface ImportedMessage {
  role: MessageRole
  parts: MessagePart[]
  name?: string
}

export class ImportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportError'
  }
}

function describeIssue(error: z.ZodError, where: string): string {
  const issue = error.issues[0]!
  const path = issue.path.length ? ` at ${issue.path.join('.')}` : ''
  return `${where}${path}: ${issue.message}`
}

/**
 * Parses an OpenAI-format conversation: a JSON array of messages, `{ "messages": [...] }`, or JSONL
 * (one message per line). Errors name the message (or line) that is wrong; nothing is half-read.
 */
export function parseOpenAIMessages(text: string): ImportedMessage[] {
  const trimmed = text.trim()
  if (trimmed === '') throw new ImportError('The file is empty.')
  let raw: Array<{ value: unknown; where: string }>
  if (trimmed.startsWith('[') || trimmed.startsWith('{"messages"') || /^\{\s*"messages"/.test(trimmed)) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch (err) {
      // A single message per line also starts with '{': try JSONL before giving up.
      if (!trimmed.startsWith('[')) return parseJsonl(trimmed)
      throw new ImportError(`The file is not valid JSON: ${(err as Error).message}`)
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { messages?: unknown }).messages
    if (!Array.isArray(list)) throw new ImportError('Expected an array of messages or { "messages": [...] }.')
    raw = list.map((value, i) => ({ value, where: `Message ${i + 1}` }))
  } else {
    return parseJsonl(trimmed)
  }
  return convert(raw)
}

function parseJsonl(text: string): ImportedMessage[] {
  const raw: Array<{ value: unknown; where: string }> = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    try {
      raw.push({ value: JSON.parse(line), where: `Line ${i + 1}` })
    } catch (err) {
      throw new ImportError(`Line ${i + 1} is not valid JSON: ${(err as Error).message}`)
    }
  })
  return convert(raw)
}

function convert(raw: Array<{ value: unknown; where: string }>): ImportedMessage[] {
  const toolNames = new Map<string, string>()
  return raw.map(({ value, where }) => {
    const parsed = openAIMessageSchema.safeParse(value)
    if (!parsed.success) throw new ImportError(describeIssue(parsed.error, where))
    const m = parsed.data
    const texts =
      typeof m.content === 'string'
        ? [m.content]
        : (m.content ?? []).map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : `[${p.type}]`))
    if (m.role === 'tool' || m.role === 'function') {
      const id = m.tool_call_id ?? m.name ?? 'call'
      return {
        role: 'tool',
        parts: [
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: toolNames.get(id) ?? m.name ?? 'tool',
            output: texts.join('')
          }
        ]
      }
    }
    const parts: MessagePart[] = texts.map((text) => ({ type: 'text', text: withoutControlCharacters(text) }))
    for (const call of m.tool_calls ?? []) {
      toolNames.set(call.id, call.function.name)
      parts.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: call.function.name,
        input: call.function.arguments
      })
    }
    const role: MessageRole = m.role === 'developer' ? 'system' : m.role
    return { role, parts, ...(m.name !== undefined ? { name: m.name } : {}) }
  })
}

/** The same conversation was imported before (and that chat still exists). */
export class AlreadyImported extends ImportError {
  constructor(readonly earlier: { sessionId: string; title: string; importedAt: number }) {
    super(
      `This chat was already imported on ${new Date(earlier.importedAt).toISOString().slice(0, 10)} as "${earlier.title}" (${earlier.sessionId}). Nothing was imported.`
    )
    this.name = 'AlreadyImported'
  }
}
