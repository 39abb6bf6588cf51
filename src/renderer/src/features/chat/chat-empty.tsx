import { ChatIcon } from '../../components/icons'
import { useProvidersStore } from '../../stores/providers-store'
import { useUiStore } from '../../stores/ui-store'
import './chat-empty.css'

/** A chat without messages yet; before any provider is set up, how to set one up. */
export function ChatEmpty() {
  const providers = useProvidersStore((s) => s.providers)
  const openSettings = useUiStore((s) => s.openSettings)
  const nothingSetUp = providers.length > 0 && providers.every((p) => !p.ready)

  if (nothingSetUp) {
    return (
      <div className="chat-empty chat-setup" role="region" aria-labelledby="chat-setup-title">
        <ChatIcon className="chat-empty-icon" width={28} height={28} />
        <h2 id="chat-setup-title">Connect a model to start</h2>
        <p className="muted">Distill talks to the model you choose. Set up one of these first:</p>
        <ul className="chat-setup-list">
          <li>
            <strong>OpenAI, Anthropic or Google</strong>: paste an API key.
          </li>
          <li>
            <strong>A model on this computer</strong> (Ollama, LM Studio, llama.cpp): give its address, e.g.{' '}
            <code>http://127.0.0.1:11434/v1</code>.
          </li>
        </ul>
        <button type="button" className="button button-primary" onClick={() => openSettings('providers')}>
          Set up a provider
        </button>
        <p className="muted chat-setup-note">Keys stay on this computer. You can also set them in the environment.</p>
      </div>
    )
  }

  return (
    <div className="chat-empty">
      <ChatIcon className="chat-empty-icon" width={28} height={28} />
      <h2>Start the conversation</h2>
      <p className="muted">
        Ask anything. Long chats stay within the model’s context: older turns are summarized, and the originals are
        always kept.
      </p>
    </div>
  )
}
