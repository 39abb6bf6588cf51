import { describe, expect, it } from 'vitest'
import { thresholdNote, thresholdNoteText } from './threshold-note'

const usage = (percent: number, source: 'chat' | 'model' | 'global', inForce: number) => ({
  modelLabel: 'GPT-4o',
  thresholdSetting: { percent, source },
  budget: { window: 128_000, reservedOutput: 16_384, safetyMargin: 5_580, usable: 106_036, threshold: 0, thresholdPercent: inForce }
})

describe('thresholdNote', () => {
  it('says when the chat has its own threshold, and links to the chat’s settings', () => {
    expect(thresholdNote(usage(75, 'chat', 75))).toEqual({
      text: 'Compresses at 75% — set for this chat.',
      lowered: null,
      place: 'chat-settings',
      linkLabel: 'Change in chat settings'
    })
  })

  it('names the model when the threshold is set for it', () => {
    expect(thresholdNote(usage(80, 'model', 80))).toMatchObject({ text: 'Compresses at 80% — set for GPT-4o in Settings.', place: 'models' })
  })

  it('calls the global threshold the default, and says why it is lower when counts are estimated', () => {
    expect(thresholdNoteText(usage(80, 'global', 75))).toBe(
      'Compresses at 80% — the default in Settings. Lowered to 75% here because this model’s tokens are estimated, not counted exactly.'
    )
    expect(thresholdNote(usage(80, 'global', 80))).toMatchObject({ place: 'compression', linkLabel: 'Change in Settings → Compression' })
  })
})
