import { useUiStore } from '../../stores/ui-store'
import { ChatPane } from './chat-pane'
import { Welcome } from './welcome'

export function ChatView() {
  const selectedId = useUiStore((s) => s.selectedSessionId)
  return selectedId ? <ChatPane key={selectedId} sessionId={selectedId} /> : <Welcome />
}
