import { toast } from 'sonner'
import { errorMessage } from '../../../api/api-error'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useSessionsStore } from '../../../stores/sessions-store'
import { useUiStore } from '../../../stores/ui-store'

interface DeleteChatDialogProps {
  sessionId: string
  title: string
  open: boolean
  onOpenChange(open: boolean): void
}

export function DeleteChatDialog({ sessionId, title, open, onOpenChange }: DeleteChatDialogProps) {
  const remove = useSessionsStore((s) => s.remove)

  async function confirm() {
    try {
      await remove(sessionId)
      useChatStore.getState().forget(sessionId)
      if (useUiStore.getState().selectedSessionId === sessionId) useUiStore.getState().deselect()
      onOpenChange(false)
      toast.success('Chat deleted')
      // The item (and the button that opened this dialog) is gone: put the focus somewhere useful.
      requestAnimationFrame(() => {
        const next =
          document.querySelector<HTMLElement>('.session-open') ?? document.querySelector<HTMLElement>('.new-chat')
        next?.focus()
      })
    } catch (error) {
      toast.error('Could not delete the chat', { description: errorMessage(error) })
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete chat?"
      description={
        <>
          <strong className="dialog-subject">{title}</strong> and all of its messages will be deleted. This cannot be
          undone.
        </>
      }
      confirmLabel="Delete"
      destructive
      onConfirm={confirm}
    />
  )
}
