import type { MessagePart } from '../../shared/domain/chat-message'
import { withoutControlCharacters } from '../../shared/domain/chat-message'
import { ImportError, type ImportedMessage } from './openai-messages'

interface ExportNode {
  parent?: string | null
  message?: {
    author?: { role?: string }
    content?: { content_type?: string; parts?: unknown[] }
    create_time?: number | null
    metadata?: { is_visually_hidden_from_conversation?: boolean }
  } | null
}

interface ExportConversation {
  title?: string
  create_time?: number
  mapping?: Record<string, ExportNode>
  current_node?: string
}

export interface ImportedConversation {
  title: string
  createdAt?: number
  messages: Array<ImportedMessage & { createdAt?: number }>
  /** Why `messages` is empty, in words, when the export holds nothing to import. */
  emptyReason?: string
}

/** True when the parsed JSON looks like ChatGPT's conversations.json (an array with a mapping tree). */
export function isChatGPTExport(data: unknown): data is ExportConversation[] {
  return (
    Array.isArray(data) && data.length > 0 && typeof data[0] === 'object' && data[0] !== null && 'mapping' in data[0]
  )
}

/**
 * The end of the branch to import: `current_node` (the conversation as last seen) when the export
 * names one that exists, else the latest branch: the leaf with the newest message, the deepest
 * one when times are missing or equal.
 */
function branchEnd(mapping: Record<string, ExportNode>, current: string | undefined): string | undefined {
  if (current && mapping[current]) return current
  const parents = new Set(
    Object.values(mapping)
      .map((n) => n.parent)
      .filter((p): p is string => typeof p === 'string')
  )
  const depth = (id: string): number => {
    let d = 0
    const seen = new Set<string>()
    for (let at: string | null | undefined = id; at && mapping[at] && !seen.has(at); at = mapping[at]!.parent) {
      seen.add(at)
      d++
    }
    return d
  }
  let best: { id: string; time: number; depth: number } | undefined
  for (const id of Object.keys(mapping)) {
    if (parents.has(id)) continue
    const candidate = { id, time: mapping[id]!.message?.create_time ?? -Infinity, depth: depth(id) }
    if (!best || candidate.time > best.time || (candidate.time === best.time && candidate.depth > best.depth))
      best = candidate
  }
  return best?.id
}

/**
 * One conversation of the export. ChatGPT keeps each as a tree of edits; the conversation as last
 * seen is the path from `current_node` up to the root (without one, the latest branch). Hidden
 * system scaffolding and empty nodes are skipped.
 */
export function parseChatGPTConversation(value: unknown, index: number): ImportedConversation {
  const conv = (typeof value === 'object' && value !== null ? value : {}) as ExportConversation
  if (!conv.mapping || typeof conv.mapping !== 'object')
    throw new ImportError(`Conversation ${index + 1} has no messages (mapping).`)
  const path: ExportNode[] = []
  const seen = new Set<string>()
  let id = branchEnd(conv.mapping, conv.current_node)
  while (id && conv.mapping[id] && !seen.has(id)) {
    seen.add(id)
    path.push(conv.mapping[id]!)
    id = conv.mapping[id]!.parent ?? undefined
  }
  const messages: ImportedConversation['messages'] = []
  for (const node of path.reverse()) {
    const m = node.message
    const role = m?.author?.role
    if (!m || m.metadata?.is_visually_hidden_from_conversation) continue
    if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'tool') continue
    const texts = (m.content?.parts ?? [])
      .map((p) => (typeof p === 'string' ? p : '[attachment]'))
      .filter((t) => t.trim() !== '')
    if (texts.length === 0) continue
    const parts: MessagePart[] =
      role === 'tool'
        ? [{ type: 'tool-result', toolCallId: 'chatgpt', toolName: 'tool', output: texts.join('\n') }]
        : [{ type: 'text', text: withoutControlCharacters(texts.join('\n')) }]
    messages.push({ role, parts, ...(m.create_time ? { createdAt: Math.round(m.create_time * 1000) } : {}) })
  }
  return {
    title: (typeof conv.title === 'string' ? conv.title.trim() : '') || `Imported chat ${index + 1}`,
    createdAt: conv.create_time ? Math.round(conv.create_time * 1000) : undefined,
    messages,
    ...(messages.length === 0
      ? {
          emptyReason:
            Object.keys(conv.mapping).length === 0
              ? 'the export holds no messages for it'
              : 'every message in it is empty or hidden'
        }
      : {})
  }
}

/** A whole parsed conversations.json (see parseChatGPTConversation). */
export function parseChatGPTExport(data: ExportConversation[]): ImportedConversation[] {
  return data.map(parseChatGPTConversation)
}
