import type { CrossChatRecall } from '../../../../../shared/contract'

const messages = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`

/** The other chats a reply recalled from, in the order their messages were recalled. */
export function byChat(recalled: readonly CrossChatRecall[]): Array<{
  sessionId: string
  chatTitle: string
  messages: CrossChatRecall[]
}> {
  const chats = new Map<string, { sessionId: string; chatTitle: string; messages: CrossChatRecall[] }>()
  for (const m of recalled) {
    const chat = chats.get(m.sessionId) ?? { sessionId: m.sessionId, chatTitle: m.chatTitle, messages: [] }
    chat.messages.push(m)
    chats.set(m.sessionId, chat)
  }
  return [...chats.values()]
}

/**
 * What a reply's request recalled, in one line: "Recalled 3 earlier messages", "Recalled 2 messages
 * from “Trip planning”", "Recalled 3 earlier messages and 2 from other chats".
 */
export function recalledSummary(own: number, crossChat: readonly CrossChatRecall[]): string {
  const chats = byChat(crossChat)
  const from = chats.length === 1 ? `from “${chats[0]!.chatTitle}”` : `from ${chats.length} other chats`
  if (crossChat.length === 0) return `Recalled ${own} earlier ${own === 1 ? 'message' : 'messages'}`
  if (own === 0) return `Recalled ${messages(crossChat.length)} ${from}`
  return `Recalled ${own} earlier ${own === 1 ? 'message' : 'messages'} and ${crossChat.length} ${from}`
}
