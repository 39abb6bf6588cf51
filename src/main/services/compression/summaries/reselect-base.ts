import type { Snapshot } from '../../../../shared/domain/snapshot'

/**
 * How many messages an offline rolling summary reads again rather than taking from the summary it
 * cascades. A cascade keeps the previous summary's lines and trims them as new messages come: after
 * a few dozen cascades the oldest stretches are held by whatever survived each trim, not by the best
 * lines of the stretch. Choosing again from the messages themselves, across the whole span, kept
 * more of what was said in the same room (LoCoMo dev, docs/quality.md "Rolling chooses again"). A
 * span longer than this cascades from the newest summary that leaves at most this many to read.
 */
export const RESELECT_MESSAGES = 2_000

/** A summary the offline summarizer may write again from its messages: its own text, nothing the user wrote or chose. */
function reselectable(s: Snapshot): boolean {
  const c = s.content
  return c.summarizer === 'extractive' && c.strategy === 'rolling' && !c.editedByUser && !c.userNotes && !c.focus
}

/**
 * The oldest summary in the active summary's cascade chain from which the new summary can be chosen
 * again (null: from the chat's first message), with the summaries between written by the offline
 * summarizer alone, and at most RESELECT_MESSAGES messages after it; undefined when the active summary
 * itself is the base (a plain cascade).
 */
export function reselectBase(
  active: Snapshot | undefined,
  newMessages: number,
  baseOf: (s: Snapshot) => Snapshot | undefined
): { base: Snapshot | null } | undefined {
  let base: Snapshot | undefined = active
  let found: { base: Snapshot | null } | undefined
  for (let guard = 0; base && reselectable(base) && guard < 10_000; guard++) {
    const older = baseOf(base)
    if (newMessages + active!.cutoffSeq - (older?.cutoffSeq ?? 0) > RESELECT_MESSAGES) break
    found = { base: older ?? null }
    if (!older) break
    base = older
  }
  return found
}
