import { describe, expect, it } from 'vitest'
import type { Snapshot, SummaryContent } from '../../../../shared/domain/snapshot'
import { RESELECT_MESSAGES, reselectBase } from './reselect-base'

/** A chain of rolling summaries, oldest first, each cascaded from the one before. */
function chain(cutoffs: number[], content: (i: number) => Partial<SummaryContent> = () => ({})): Snapshot[] {
  return cutoffs.map((cutoffSeq, i) => ({
    id: `s${i}`,
    sessionId: 'chat',
    kind: 'summary',
    cutoffSeq,
    messageCutoffId: `m${cutoffSeq}`,
    tokenCount: 100,
    status: i === cutoffs.length - 1 ? 'active' : 'superseded',
    createdAt: i,
    content: {
      summarizer: 'extractive',
      strategy: 'rolling',
      focus: null,
      baseSnapshotId: i > 0 ? `s${i - 1}` : null,
      ...content(i)
    } as SummaryContent
  }))
}
const baseOf = (all: Snapshot[]) => (s: Snapshot) => all.find((o) => o.id === s.content.baseSnapshotId)

describe('which summary an offline rolling summary is chosen again from', () => {
  it('reads every message again while the chat is short: from its first message', () => {
    const all = chain([40, 60, 80])
    expect(reselectBase(all.at(-1), 20, baseOf(all))).toEqual({ base: null })
  })

  it('in a long chat, cascades from the newest summary that leaves at most the limit to read', () => {
    const step = RESELECT_MESSAGES / 4
    const all = chain([1, 2, 3, 4, 5, 6].map((k) => k * step))
    // 6 steps covered, one more new: the re-read starts after the summary at 3 steps (3 + 1 new = 4 steps).
    expect(reselectBase(all.at(-1), step, baseOf(all))?.base?.id).toBe('s2')
  })

  it('never reads past what the user wrote or chose: an edited summary, notes, a focus, a model summary', () => {
    for (const mark of [
      { editedByUser: true },
      { userNotes: 'Keep: the port is 5433.' },
      { focus: 'the API design' },
      { summarizer: 'llm' }
    ] as Array<Partial<SummaryContent>>) {
      const all = chain([40, 60, 80], (i) => (i === 1 ? mark : {}))
      // The summary after the marked one is chosen again from the marked one, which is carried as it is.
      expect(reselectBase(all.at(-1), 20, baseOf(all))?.base?.id).toBe('s1')
    }
  })

  it('is a plain cascade when the active summary is itself the user’s, or when one span is already too long', () => {
    const edited = chain([40, 60], (i) => (i === 1 ? { editedByUser: true } : {}))
    expect(reselectBase(edited.at(-1), 20, baseOf(edited))).toBeUndefined()
    const long = chain([RESELECT_MESSAGES])
    expect(reselectBase(long.at(-1), 10, baseOf(long))).toBeUndefined()
    expect(reselectBase(undefined, 10, baseOf(long))).toBeUndefined()
  })
})
