import type { ContextUsage } from '../../../../shared/contract'

/** Where a threshold is changed: the chat's own settings, or a section of the Settings page. */
export type ThresholdPlace = 'chat-settings' | 'models' | 'compression'

export interface ThresholdNote {
  /** "Compresses at 75% — set for this chat." */
  text: string
  /** Why the threshold in force is below the one set, when it is. */
  lowered: string | null
  place: ThresholdPlace
  /** The link to that place, in words. */
  linkLabel: string
}

/**
 * Where the compression threshold in force comes from, in plain words: this chat's own, its
 * model's (Settings → Models) or the default (Settings → Compression), and lowered while the counts
 * are only estimates. Two chats at 75% and 80% each say why.
 */
export function thresholdNote(usage: Pick<ContextUsage, 'modelLabel' | 'thresholdSetting' | 'budget'>): ThresholdNote {
  const { percent, source } = usage.thresholdSetting
  const inForce = usage.budget.thresholdPercent
  const lowered =
    inForce < percent
      ? `Lowered to ${inForce}% here because this model’s tokens are estimated, not counted exactly. ${calibrationText(usage.budget)}`
      : null
  switch (source) {
    case 'chat':
      return {
        text: `Compresses at ${percent}% — set for this chat.`,
        lowered,
        place: 'chat-settings',
        linkLabel: 'Change in chat settings'
      }
    case 'model':
      return {
        text: `Compresses at ${percent}% — set for ${usage.modelLabel} in Settings.`,
        lowered,
        place: 'models',
        linkLabel: 'Change in Settings → Models'
      }
    case 'global':
      return {
        text: `Compresses at ${percent}% — the default in Settings.`,
        lowered,
        place: 'compression',
        linkLabel: 'Change in Settings → Compression'
      }
  }
}

/**
 * How far the estimate was off, from what the provider reported: the same conversion the meter and
 * every decision use (`budget.scale`), and what it was learned from.
 */
export function calibrationText(budget: Pick<ContextUsage['budget'], 'calibration' | 'scale'>): string {
  const c = budget.calibration
  if (!c) return 'No reply has reported the provider’s own count yet, so the estimate is used as it is.'
  const off = Math.round(Math.abs(c.factor - 1) * 100)
  const replies = `${c.samples} ${c.samples === 1 ? 'reply' : 'replies'}${c.from ? ` of ${c.from} (none of this model’s yet)` : ''}`
  const seen =
    off === 0
      ? `The provider’s counts matched the estimate over the last ${replies}`
      : `The provider counted ${off}% ${c.factor > 1 ? 'more' : 'fewer'} tokens than the estimate over the last ${replies}`
  const used = budget.scale.toFixed(2)
  return c.factor < 1 && Math.abs(budget.scale - c.factor) >= 0.005
    ? `${seen}; each estimated token is reckoned as ${used} (trusted more with each reply, so a request never passes the window).`
    : `${seen}; each estimated token is reckoned as ${used}.`
}

/** The note as one sentence or two, for the meter's popover. */
export function thresholdNoteText(usage: Pick<ContextUsage, 'modelLabel' | 'thresholdSetting' | 'budget'>): string {
  const note = thresholdNote(usage)
  return note.lowered ? `${note.text} ${note.lowered}` : note.text
}
