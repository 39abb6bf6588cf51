import { LogoMark, PlusIcon } from '../../components/icons'
import { PaneHeader } from '../../components/pane-header'
import { useSessionsStore } from '../../stores/sessions-store'
import { useNewChat } from '../sessions/list/use-new-chat'
import './welcome.css'

/** The main pane when no chat is open. */
export function Welcome() {
  const { newChat, creating } = useNewChat()
  const hasChats = useSessionsStore((s) => s.sessions.length > 0 || s.listedQuery !== '')
  return (
    <section className="pane" aria-labelledby="welcome-title">
      <PaneHeader />
      <div className="welcome">
        <LogoMark className="welcome-logo" width={44} height={44} />
        <h1 id="welcome-title">Welcome to Distill</h1>
        <p className="welcome-lede">
          Conversations that never run out of context. As a chat grows, older turns are summarized and recent ones stay
          word for word — and the originals are always kept.
        </p>
        <button
          type="button"
          className="button button-primary button-large"
          onClick={() => void newChat()}
          disabled={creating}
        >
          <PlusIcon />
          New chat
        </button>
        {hasChats && <p className="muted welcome-hint">Or pick up a conversation from the sidebar.</p>}
      </div>
    </section>
  )
}
