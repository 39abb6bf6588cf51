import { useEffect } from 'react'
import { create } from 'zustand'
import type { SummarySources } from '../../../shared/contract'
import type { Snapshot } from '../../../shared/domain/snapshot'
import { api } from '../api/client'
import { useRecallStore } from '../stores/chat/recall-store'
import { useUiStore } from '../stores/ui-store'

type Entry = { status: 'loading' } | { status: 'ready'; sources: SummarySources } | { status: 'failed' }

/**
 * Where each line of a summary came from (issue 37), asked for when a summary is shown: per summary
 * and its text (a draft's text can change under the same id), kept for the session of the window.
 */
const useSourcesStore = create<{ entries: Record<string, Entry> }>()(() => ({ entries: {} }))

/** A summary's key: its id and text (a draft edited in place is attributed again). */
function keyOf(snapshot: Pick<Snapshot, 'id' | 'content'>): string {
  const text = snapshot.content.summaryText
  let hash = 0
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0
  return `${snapshot.id}:${text.length}:${hash}`
}

function load(snapshot: Pick<Snapshot, 'id' | 'sessionId' | 'content'>): void {
  const key = keyOf(snapshot)
  const { entries } = useSourcesStore.getState()
  if (entries[key] && entries[key].status !== 'failed') return
  const put = (entry: Entry) => useSourcesStore.setState((s) => ({ entries: { ...s.entries, [key]: entry } }))
  put({ status: 'loading' })
  api
    .request('compression.sources', { sessionId: snapshot.sessionId, snapshotId: snapshot.id })
    .then((sources) => put({ status: 'ready', sources }))
    // Without its sources a summary still reads the same: the links are simply not shown.
    .catch(() => put({ status: 'failed' }))
}

/** The sources of a summary's lines, asked for once shown (`enabled`); null until they arrive. */
export function useSummarySources(
  snapshot: Pick<Snapshot, 'id' | 'sessionId' | 'content'> | null | undefined,
  enabled = true
): { sources: SummarySources | null; failed: boolean } {
  const key = snapshot ? keyOf(snapshot) : null
  const entry = useSourcesStore((s) => (key ? s.entries[key] : undefined))
  useEffect(() => {
    if (snapshot && enabled) load(snapshot)
    // The key stands for the snapshot's id and text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled])
  return { sources: entry?.status === 'ready' ? entry.sources : null, failed: entry?.status === 'failed' }
}

/** Opens Full history at a message, highlighted, as "Recalled 3 earlier messages" does. */
export function openInFullHistory(messageId: string): void {
  useRecallStore.getState().requestJump(messageId)
  useUiStore.getState().setChatDialog('history')
}

/** What the role of a message is called in a list of sources. */
export const SOURCE_ROLE: Record<string, string> = {
  user: 'You',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool'
}
