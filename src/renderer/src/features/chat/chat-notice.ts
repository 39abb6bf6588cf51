import { toast } from 'sonner'
import { useUiStore } from '../../stores/ui-store'

/**
 * Something a chat learned that the user should know (a server's window smaller than the one set):
 * always said, whatever the notification setting, since it changes the chat's own settings.
 */
export function notifyChatNotice(sessionId: string, text: string): void {
  toast('This chat changed its window', {
    id: `chat-notice-${sessionId}`,
    description: text,
    action: { label: 'Open chat', onClick: () => useUiStore.getState().openSession(sessionId) },
    duration: 15_000
  })
}
