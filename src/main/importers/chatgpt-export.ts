import type { MessagePart } from '../../shared/domain/chat-message'
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
}

/** True when the parsed JSON looks like ChatGPT's conversations.json (an array with a mapping tree). */
export function isChatGPTExport(data: unknown): data is ExportConversation[] {
  return Array.isArray(data) && data.length > 0 && typeof data[0] === 'object' && data[0] !== null && 'mapping' in data[0]
}

/**
 * ChatGPT's export keeps each conversation as a tree of edits; the conversation as last seen is the
 * path from `current_node` up to the root. Hidden system scaffolding and empty nodes are skipped.
 */
export function parseChatGPTExport(data: ExportConversation[]): ImportedConversation[] {
  return data.map((conv, index) => {
    if (!conv.mapping || typeof conv.mapping !== 'object') throw new ImportError(`Conversation ${index + 1} has no messages (mapping).`)
    const path: ExportNode[] = []
    const seen = new Set<string>()
    let id = conv.current_node ?? Object.keys(conv.mapping).at(-1)
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
      const texts = (m.content?.parts ?? []).map((p) => (typeof p === 'string' ? p : '[attachment]')).filter((t) => t.trim() !== '')
      if (texts.length === 0) continue
      const parts: MessagePart[] = role === 'tool'
        ? [{ type: 'tool-result', toolCallId: 'chatgpt', toolName: 'tool', output: texts.join('\n') }]
        : [{ type: 'text', text: texts.join('\n') }]
      messages.push({ role, parts, ...(m.create_time ? { createdAt: Math.round(m.create_time * 1000) } : {}) })
    }
    return { title: conv.title?.trim() || `Imported chat ${index + 1}`, createdAt: conv.create_time ? Math.round(conv.create_time * 1000) : undefined, messages }
  })
}
