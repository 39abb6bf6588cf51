import { useEffect } from 'react'
import type { CrossChatRecall } from '../../../../../shared/contract'
import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { messageText } from '../../../lib/message-text'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useRecallStore } from '../../../stores/chat/recall-store'
import { useSessionsStore } from '../../../stores/sessions-store'
import { useUiStore } from '../../../stores/ui-store'
import { byChat, recalledSummary } from './recalled-text'
import '../../../components/recall.css'

const EMPTY: string[] = []
const NONE: CrossChatRecall[] = []
const PREVIEW_CHARS = 90

const preview = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_CHARS)

/**
 * "Recalled 3 earlier messages" under a reply whose request brought summarized originals back, and
 * the messages it brought from other chats of the project, under their chat's title. This chat's
 * open in Full history; another chat's open that chat at the message.
 */
export function RecalledNote({ message }: { message: ChatMessage }) {
  const done = message.role === 'assistant' && message.status !== 'streaming'
  const ids = useRecallStore((s) => s.bySession[message.sessionId]?.replies[message.id] ?? EMPTY)
  const crossChat = useRecallStore((s) => s.bySession[message.sessionId]?.crossChat[message.id] ?? NONE)
  const thread = useChatStore((s) => s.threads[message.sessionId]?.messages)
  useEffect(() => {
    if (done) useRecallStore.getState().ensure(message.sessionId, message.id)
  }, [done, message.sessionId, message.id])
  if (!done || (ids.length === 0 && crossChat.length === 0)) return null

  const jump = (id: string) => {
    useRecallStore.getState().requestJump(id)
    useUiStore.getState().setChatDialog('history')
  }
  return (
    <details className="recalled-note">
      <summary>{recalledSummary(ids.length, crossChat)}</summary>
      {ids.length > 0 && (
        <ul aria-label="Recalled messages">
          {ids.map((id) => {
            const original = thread?.find((m) => m.id === id)
            return (
              <li key={id}>
                <button type="button" onClick={() => jump(id)} title="Show it in Full history">
                  {original ? preview(messageText(original.parts)) : 'An earlier message'}
                </button>
              </li>
            )
          })}
        </ul>
      )}
      {byChat(crossChat).map((chat) => (
        <div key={chat.sessionId} className="recalled-note-chat">
          <p className="recalled-note-from">From the chat “{chat.chatTitle}”</p>
          <ul aria-label={`Recalled from “${chat.chatTitle}”`}>
            {chat.messages.map((m) => (
              <li key={m.messageId}>
                <button
                  type="button"
                  onClick={() => useSessionsStore.getState().openAt(chat.sessionId, m.messageId)}
                  title={`Open it in “${chat.chatTitle}”`}
                >
                  {preview(m.preview) || 'A message'}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </details>
  )
}
