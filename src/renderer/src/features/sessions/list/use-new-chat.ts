import { useState } from 'react'
import { toast } from 'sonner'
import { errorMessage } from '../../../api/api-error'
import { useSessionsStore } from '../../../stores/sessions-store'
import { useUiStore } from '../../../stores/ui-store'

/** Creates a chat and opens it; the composer takes the focus when the chat mounts. */
export function useNewChat(): { newChat: () => Promise<void>; creating: boolean } {
  const [creating, setCreating] = useState(false)
  const create = useSessionsStore((s) => s.create)
  const openSession = useUiStore((s) => s.openSession)

  async function newChat() {
    if (creating) return
    setCreating(true)
    try {
      const session = await create()
      openSession(session.id)
    } catch (error) {
      toast.error('Could not create a chat', { description: errorMessage(error) })
    } finally {
      setCreating(false)
    }
  }

  return { newChat, creating }
}
