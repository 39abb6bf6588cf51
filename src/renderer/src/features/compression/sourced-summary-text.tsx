import { useMemo, type MouseEvent, type ReactNode } from 'react'
import type { Components } from 'react-markdown'
import type { SummarySources } from '../../../../shared/contract'
import type { Snapshot } from '../../../../shared/domain/snapshot'
import { MarkdownText } from '../../components/markdown-text'
import { openInFullHistory, SOURCE_ROLE, useSummarySources } from '../../components/summary-sources'
import './sourced-summary-text.css'

type Source = SummarySources['lines'][number]['sources'][number]
type SourceMessage = SummarySources['messages'][number]

/** A line of the summary with sources: its number among such lines (1-based) and the messages. */
interface SourcedLine {
  n: number
  sources: Source[]
}

/**
 * A summary's text with each line linked to the message(s) it came from (issue 37): a click on
 * the line, or on its "#12" (the message's number, keyboard-reachable), opens Full history there.
 * Until the sources arrive (or if they cannot), the text reads as it always did.
 */
export function SourcedSummaryText({ snapshot }: { snapshot: Pick<Snapshot, 'id' | 'sessionId' | 'content'> }) {
  const { sources } = useSummarySources(snapshot)
  const components = useMemo(() => (sources ? lineComponents(sources) : undefined), [sources])
  const anyQuoted = sources?.lines.some((l) => l.sources.some((s) => s.quoted))
  const anyMatched = sources?.lines.some((l) => l.sources.some((s) => !s.quoted))
  return (
    <>
      <MarkdownText text={snapshot.content.summaryText} components={components} />
      {sources && sources.lines.length > 0 && (
        <p className="summary-sources-hint">
          Click a line, or its #number, to open the message it came from in Full history.
          {anyMatched &&
            (anyQuoted
              ? ' A dashed number marks the closest match to a line in other words.'
              : ' Numbers mark the closest matches to each line.')}
        </p>
      )}
    </>
  )
}

/** List items and top-level paragraphs that start on a line with sources get their links. */
function lineComponents(sources: SummarySources): Components {
  // react-markdown counts lines from 1; the server from 0.
  const byLine = new Map<number, SourcedLine>()
  sources.lines.forEach((l, i) => byLine.set(l.line + 1, { n: i + 1, sources: l.sources }))
  const messages = new Map(sources.messages.map((m) => [m.messageId, m]))

  const sourced = (from: number, to: number): SourcedLine | undefined => {
    const found: SourcedLine[] = []
    for (let line = from; line <= to; line++) {
      const entry = byLine.get(line)
      if (entry) found.push(entry)
    }
    if (found.length <= 1) return found[0]
    // A paragraph written over several lines: one set of links, each message once.
    const seen = new Set<string>()
    const all = found.flatMap((f) => f.sources).filter((s) => !seen.has(s.messageId) && seen.add(s.messageId))
    return { n: found[0]!.n, sources: all }
  }

  return {
    li: ({ node, children, ...props }) => {
      const line = node?.position?.start.line
      const entry = line === undefined ? undefined : byLine.get(line)
      if (!entry) return <li {...props}>{children}</li>
      return (
        <li {...props} className="summary-line" data-sourced="" onClick={openFirst(entry)}>
          {children}
          <SourceLinks entry={entry} messages={messages} />
        </li>
      )
    },
    p: ({ node, children, ...props }) => {
      const at = node?.position
      // Inside a list item or a quote a paragraph starts further in: the item carries the links.
      const entry = at && at.start.column === 1 ? sourced(at.start.line, at.end.line) : undefined
      if (!entry) return <p {...props}>{children}</p>
      return (
        <p {...props} className="summary-line" data-sourced="" onClick={openFirst(entry)}>
          {children}
          <SourceLinks entry={entry} messages={messages} />
        </p>
      )
    }
  }
}

/** A click anywhere on the line (not on a link, not while selecting text) opens its first source. */
function openFirst(entry: SourcedLine) {
  return (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('a, button')) return
    if (window.getSelection()?.toString()) return
    openInFullHistory(entry.sources[0]!.messageId)
  }
}

function SourceLinks({ entry, messages }: { entry: SourcedLine; messages: Map<string, SourceMessage> }): ReactNode {
  const many = entry.sources.length > 1
  return (
    <span className="summary-sources">
      {entry.sources.map((source, k) => {
        const message = messages.get(source.messageId)
        const who = message ? (SOURCE_ROLE[message.role] ?? message.role) : undefined
        const how = source.quoted ? 'Said in' : many ? 'Drawn from (one of the closest matches)' : 'Drawn from'
        return (
          <button
            key={source.messageId}
            type="button"
            className="summary-source"
            data-quoted={source.quoted || undefined}
            aria-label={`Open source ${many ? `${k + 1} ` : ''}of line ${entry.n} in Full history: message #${source.seq}`}
            title={`${how} message ${source.seq}${who ? ` (${who})` : ''}${message ? `: ${message.preview}` : ''}`}
            onClick={() => openInFullHistory(source.messageId)}
          >
            #{source.seq}
          </button>
        )
      })}
    </span>
  )
}
