import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import type { ChatMessage } from '../../../../../shared/domain/chat-message'
import { highlighterLoaded, MarkdownText } from '../../../components/markdown-text'
import { MessageItem } from './message-item'

const fence = (language: string, code: string) => `\`\`\`${language}\n${code}\n\`\`\``

/**
 * What messages are made of: Markdown's common constructs, then code in languages chats often hold
 * (each highlight.js language is compiled the first time it is used).
 */
const SAMPLES = [
  'A **first** line with `code`, _emphasis_, ~~a strike~~ and [a link](https://example.com).\nA second line.\n\n' +
    '- a list\n- [x] with a task\n\n1. numbered\n\n> a quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## A heading',
  fence(
    'ts',
    'export function sum(values: number[]): number {\n  // add them up\n  return values.reduce((a, b) => a + b, 0)\n}'
  ),
  fence('js', "const answer = await fetch('/api').then((r) => r.json())"),
  fence('python', 'def total(rows):\n    """Adds them up."""\n    return sum(r * 2 for r in rows if r > 0)'),
  fence('bash', 'npm install && echo "done" | grep -v warn'),
  fence('json', '{ "name": "distill", "version": 1, "ok": true }')
]

function sample(text: string): ChatMessage {
  return {
    id: 'warm-up',
    sessionId: 'warm-up',
    seq: 0,
    role: 'user',
    parts: [{ type: 'text', text }],
    status: 'complete',
    error: null,
    tokenCount: null,
    tokenCounter: null,
    inputTokens: null,
    outputTokens: null,
    createdAt: 0
  }
}

/**
 * The first chat a window opens used to take twice as long as any later one: the code that turns a
 * message into elements (Markdown parsing, highlighting, the message's own components) ran cold,
 * compiled on first use. Renders a few sample messages into a detached element, one per idle
 * moment, so that code is warm before the first click on a chat. Nothing is shown or requested
 * (a user message reads no recall or attachment).
 */
export function warmUpMessageRendering(): void {
  if (typeof requestIdleCallback !== 'function') return
  void highlighterLoaded.then(() => {
    const steps = SAMPLES.map((text, i) => () => {
      const root = createRoot(document.createElement('div'))
      flushSync(() =>
        root.render(i === 0 ? <MessageItem message={sample(text)} canRetry={false} /> : <MarkdownText text={text} />)
      )
      root.unmount()
    })
    const next = () => {
      steps.shift()?.()
      if (steps.length > 0) requestIdleCallback(next, { timeout: 1000 })
    }
    requestIdleCallback(next, { timeout: 1000 })
  })
}
