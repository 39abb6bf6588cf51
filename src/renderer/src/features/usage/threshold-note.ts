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
    inForce < percent ? `Lowered to ${inForce}% here because this model’s tokens are estimated, not counted exactly.` : null
  switch (source) {
    case 'chat':
      return { text: `Compresses at ${percent}% — set for this chat.`, lowered, place: 'chat-settings', linkLabel: 'Change in chat settings' }
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

/** The note as one sentence or two, for the meter's popover. */
export function thresholdNoteText(usage: Pick<ContextUsage, 'modelLabel' | 'thresholdSetting' | 'budget'>): string {
  const note = thresholdNote(usage)
  return note.lowered ? `${note.text} ${note.lowered}` : note.text
}
