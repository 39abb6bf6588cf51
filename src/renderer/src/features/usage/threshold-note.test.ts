import { describe, expect, it } from 'vitest'
import { thresholdNote, thresholdNoteText } from './threshold-note'

const usage = (percent: number, source: 'chat' | 'model' | 'global', inForce: number) => ({
  modelLabel: 'GPT-4o',
  thresholdSetting: { percent, source },
  budget: {
    window: 128_000,
    reservedOutput: 16_384,
    safetyMargin: 5_580,
    usable: 106_036,
    threshold: 0,
    thresholdPercent: inForce,
    scale: 1,
    countedUsable: 106_036,
    countedThreshold: 0,
    exact: inForce === percent,
    calibration: null
  }
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
    expect(thresholdNote(usage(80, 'model', 80))).toMatchObject({
      text: 'Compresses at 80% — set for GPT-4o in Settings.',
      place: 'models'
    })
  })

  it('calls the global threshold the default, and says why it is lower when counts are estimated', () => {
    expect(thresholdNoteText(usage(80, 'global', 75))).toBe(
      'Compresses at 80% — the default in Settings. Lowered to 75% here because this model’s tokens are estimated, not counted exactly. ' +
        'No reply has reported the provider’s own count yet, so the estimate is used as it is.'
    )
    expect(thresholdNote(usage(80, 'global', 80))).toMatchObject({
      place: 'compression',
      linkLabel: 'Change in Settings → Compression'
    })
  })

  it('says by how much the estimate was off and what it is reckoned at, from the calibration', () => {
    const fewer = { ...usage(95, 'global', 90).budget, scale: 0.76, calibration: { factor: 0.7, samples: 4 } }
    expect(thresholdNote({ ...usage(95, 'global', 90), budget: fewer }).lowered).toBe(
      'Lowered to 90% here because this model’s tokens are estimated, not counted exactly. ' +
        'The provider counted 30% fewer tokens than the estimate over the last 4 replies; each estimated token is reckoned as 0.76 ' +
        '(trusted more with each reply, so a request never passes the window).'
    )
    const more = { ...usage(95, 'global', 90).budget, scale: 1.3, calibration: { factor: 1.3, samples: 1 } }
    expect(thresholdNote({ ...usage(95, 'global', 90), budget: more }).lowered).toMatch(
      /counted 30% more tokens than the estimate over the last 1 reply; each estimated token is reckoned as 1\.30\.$/
    )
  })
})
