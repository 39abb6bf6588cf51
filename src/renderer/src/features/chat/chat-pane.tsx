import { useEffect, useLayoutEffect } from 'react'
import { HistoryIcon, StackIcon, SummarizeIcon } from '../../components/icons'
import { PaneHeader } from '../../components/pane-header'
import { useChatStore } from '../../stores/chat/chat-store'
import { useCompressionStore } from '../../stores/compression-store'
import { useSessionsStore, useSessionTitle } from '../../stores/sessions-store'
import { useUiStore } from '../../stores/ui-store'
import { ContextInspector } from '../usage/context-inspector'
import { NewTopicButton } from '../compression/new-topic-button'
import { SummarizeDialog } from '../compression/summarize-dialog'
import { SummaryPanel } from '../compression/summary-panel'
import { FullHistoryDialog } from '../history/full-history-dialog'
import { ChatMenu, chatMenuItems } from '../sessions/list/chat-menu'
import { ContextMeter } from '../usage/context-meter'
import { ChatSettingsButton, ChatSettingsDialog } from './chat-settings/chat-settings-dialog'
import { Composer } from './composer/composer'
import { DropOverlay, useFileDrop } from './composer/file-drop'
import { MessageList } from './messages/message-list'
import { ModelPicker } from './model-picker'
import { WindowUnknown } from './window-unknown'
import { SystemPromptButton } from './chat-settings/system-prompt-dialog'
import './chat-pane.css'

/** Ctrl+Shift+S (⌘⇧S on macOS) opens "Summarize conversation history". */
function isSummarizeShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === 's'
}

/**
 * An open chat: its title with the model, the context meter and the chat's tools, then the summary,
 * the conversation and the composer. Mounted per chat (keyed by id).
 */
export function ChatPane({ sessionId }: { sessionId: string }) {
  const title = useSessionTitle(sessionId)
  const setChatDialog = useUiStore((s) => s.setChatDialog)
  const hasMessages = useChatStore((s) => (s.threads[sessionId]?.messages.length ?? 0) > 0)
  const drop = useFileDrop(sessionId)

  // A layout effect, so the page is asked for before the header's meter and summary ask for theirs
  // (children's passive effects run first): on a long chat those take longer on the server.
  useLayoutEffect(() => {
    const chat = useChatStore.getState()
    // Opened from a search hit: the page around that message, not the newest one.
    const jump = useSessionsStore.getState().pendingJump
    const loaded = chat.threads[sessionId]?.messages.some((m) => m.id === jump?.messageId)
    if (jump?.sessionId === sessionId && !loaded) void chat.loadAround(sessionId, jump.messageId)
    else chat.loadUnlessLoaded(sessionId)
    void useSessionsStore.getState().fetchOne(sessionId)
    void useCompressionStore.getState().load(sessionId)
  }, [sessionId])

  useEffect(() => {
    document.title = title && title.trim() ? `${title} – Distill` : 'Distill'
    return () => {
      document.title = 'Distill'
    }
  }, [title])

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (!isSummarizeShortcut(event)) return
      event.preventDefault()
      const ui = useUiStore.getState()
      if (ui.chatDialog === null) ui.setChatDialog('summarize')
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [])

  return (
    <section className="pane chat-pane" aria-label="Chat" {...drop.handlers}>
      <DropOverlay visible={drop.dragging} />
      <PaneHeader title={<span className="pane-title-text">{title ?? ' '}</span>}>
        <ModelPicker sessionId={sessionId} />
        <WindowUnknown sessionId={sessionId} />
        <span className="header-group">
          <ContextMeter sessionId={sessionId} />
          <button
            type="button"
            className="icon-button header-button inspect-button"
            aria-label="Inspect context"
            title="Inspect context"
            onClick={() => setChatDialog('inspector')}
          >
            <StackIcon />
          </button>
        </span>
        <button
          type="button"
          className="button button-small header-text-button"
          title="Summarize conversation history (Ctrl+Shift+S)"
          aria-keyshortcuts="Control+Shift+S"
          disabled={!hasMessages}
          onClick={() => setChatDialog('summarize')}
        >
          <SummarizeIcon width={14} height={14} />
          <span className="header-button-label">Summarize</span>
        </button>
        <NewTopicButton sessionId={sessionId} disabled={!hasMessages} />
        <button
          type="button"
          className="icon-button header-button"
          aria-label="View full history"
          title="View full history"
          onClick={() => setChatDialog('history')}
        >
          <HistoryIcon />
        </button>
        <SystemPromptButton sessionId={sessionId} />
        <ChatSettingsButton sessionId={sessionId} />
        <ChatMenu items={chatMenuItems(sessionId, hasMessages)} />
      </PaneHeader>
      <SummaryPanel sessionId={sessionId} />
      <MessageList sessionId={sessionId} />
      <Composer sessionId={sessionId} />
      <SummarizeDialog sessionId={sessionId} />
      <ContextInspector sessionId={sessionId} />
      <FullHistoryDialog sessionId={sessionId} />
      <ChatSettingsDialog sessionId={sessionId} />
    </section>
  )
}
