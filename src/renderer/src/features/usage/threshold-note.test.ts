import { describe, expect, it } from 'vitest'
import { thresholdNote } from './threshold-note'

const usage = (percent: number, source: 'model' | 'global', inForce: number) => ({
  modelLabel: 'GPT-4o',
  thresholdSetting: { percent, source },
  budget: { window: 128_000, reservedOutput: 16_384, safetyMargin: 5_580, usable: 106_036, threshold: 0, thresholdPercent: inForce }
})

describe('thresholdNote', () => {
  it('names the model when the threshold is set for it', () => {
    expect(thresholdNote(usage(80, 'model', 80))).toBe('Threshold: 80% is set for GPT-4o in Settings → Models.')
  })

  it('says it is the global setting otherwise, and why it is lower when counts are estimated', () => {
    expect(thresholdNote(usage(80, 'global', 75))).toBe(
      'Threshold: 80% is the global setting (Settings → Compression); a model can have its own under Models. It is lowered to 75% here because this model’s tokens are estimated, not counted exactly.'
    )
  })
})
