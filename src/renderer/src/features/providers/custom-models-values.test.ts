import { describe, expect, it } from 'vitest'
import { emptyRow, rowsDiffer, serverRowErrors, toModels, toRows } from './custom-models-values'

describe('custom model rows', () => {
  const saved = [
    { provider: 'openai-compatible' as const, id: 'llama3.2:latest', contextWindow: 131072, maxOutput: 4096 }
  ]

  it('round-trip saved models', () => {
    const rows = toRows(saved)
    expect(rowsDiffer(rows, saved)).toBe(false)
    expect(toModels(rows)).toEqual({ models: saved, errors: {} })
  })

  it('notice edits, additions and removals', () => {
    const rows = toRows(saved)
    expect(rowsDiffer([{ ...rows[0]!, contextWindow: '2048' }], saved)).toBe(true)
    expect(rowsDiffer([...rows, emptyRow()], saved)).toBe(true)
    expect(rowsDiffer([], saved)).toBe(true)
  })

  it('check numbers, duplicates and output against the window', () => {
    const a = { ...emptyRow(), id: 'tiny', contextWindow: 'lots', maxOutput: '' }
    const b = { ...emptyRow(), id: 'tiny', contextWindow: '2,048', maxOutput: '4096' }
    const { errors, models } = toModels([a, b])
    expect(errors[a.key]).toEqual({ contextWindow: 'Enter a number', maxOutput: 'Enter a number' })
    expect(errors[b.key]).toEqual({
      id: 'Listed twice for this provider',
      maxOutput: 'Cannot exceed the context window'
    })
    expect(models[1]!.contextWindow).toBe(2048)
  })

  it('keep whether a model takes images, saying nothing when it is left to the name', () => {
    const withVision = [{ ...saved[0]!, vision: true, tokenizer: 'estimate' as const }]
    const rows = toRows(withVision)
    expect(rows[0]!.vision).toBe('yes')
    expect(rowsDiffer(rows, withVision)).toBe(false)
    expect(toModels(rows).models).toEqual(withVision)
    expect(rowsDiffer([{ ...rows[0]!, vision: 'no' }], withVision)).toBe(true)
    expect(toModels([{ ...rows[0]!, vision: 'no' }]).models[0]!.vision).toBe(false)
    expect(toModels([{ ...rows[0]!, vision: 'guess' }]).models[0]).not.toHaveProperty('vision')
  })

  it('place server issues on their rows', () => {
    const rows = [emptyRow(), emptyRow()]
    const errors = serverRowErrors(rows, [
      { path: ['customModels', 1, 'contextWindow'], message: 'At least 512 tokens' },
      { path: ['customModels', 0, 'id'], message: 'Name the model' },
      { path: ['thresholdPercent'], message: 'elsewhere' }
    ])
    expect(errors).toEqual({
      [rows[0]!.key]: { id: 'Name the model' },
      [rows[1]!.key]: { contextWindow: 'At least 512 tokens' }
    })
  })
})
