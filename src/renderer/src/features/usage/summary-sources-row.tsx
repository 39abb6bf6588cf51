import { useState } from 'react'
import { useCompressionStore } from '../../stores/compression-store'
import { openInFullHistory, SOURCE_ROLE, useSummarySources } from '../../components/summary-sources'

/**
 * Under the inspector's Summary row: how many messages the summary stands for and, opened, the
 * ones its lines came from (issue 37), each opening Full history at it.
 */
export function SummarySourcesRow({ sessionId }: { sessionId: string }) {
  const active = useCompressionStore((s) => s.active[sessionId] ?? null)
  const [open, setOpen] = useState(false)
  const { sources, failed } = useSummarySources(active, open)
  if (!active) return null
  const n = active.content.messagesIncluded
  const linesOf = new Map<string, number[]>()
  sources?.lines.forEach((l, i) => {
    for (const s of l.sources) linesOf.set(s.messageId, [...(linesOf.get(s.messageId) ?? []), i + 1])
  })
  return (
    <tr className="inspector-sources-row">
      <td colSpan={3}>
        <details onToggle={(event) => setOpen(event.currentTarget.open)}>
          <summary>
            Stands for {n} {n === 1 ? 'message' : 'messages'}
          </summary>
          {failed ? (
            <p className="inspector-sources-note">Could not find where its lines came from.</p>
          ) : !sources ? (
            <p className="inspector-sources-note" aria-busy="true">
              Finding where its lines came from…
            </p>
          ) : sources.messages.length === 0 ? (
            <p className="inspector-sources-note">None of its lines could be matched to a message.</p>
          ) : (
            <>
              <p className="inspector-sources-note">
                Its lines came from{' '}
                {sources.messages.length === n ? 'each of them' : `${sources.messages.length} of them`}; open one in
                Full history:
              </p>
              <ul className="inspector-sources" aria-label="Messages the summary’s lines came from">
                {sources.messages.map((m) => {
                  const lines = linesOf.get(m.messageId) ?? []
                  return (
                    <li key={m.messageId}>
                      <button type="button" className="inspector-source" onClick={() => openInFullHistory(m.messageId)}>
                        <span className="inspector-source-head">
                          <span className="inspector-source-seq">#{m.seq}</span>
                          <span className="inspector-source-role">{SOURCE_ROLE[m.role] ?? m.role}</span>
                          <span className="inspector-source-lines">
                            {lines.length === 1 ? 'line' : 'lines'} {lines.join(', ')}
                          </span>
                        </span>
                        <span className="inspector-source-preview">{m.preview}</span>
                      </button>
                    </li>
                  )
                })}
              </ul>
            </>
          )}
        </details>
      </td>
    </tr>
  )
}
