import { describe, expect, it } from 'vitest'
import { windowAssumed } from './window-assumed'

describe('windowAssumed', () => {
  it('is true for a model nobody told Distill the window of, in a chat without its own', () => {
    expect(windowAssumed({ modelKnown: false }, { contextWindow: null })).toBe(true)
  })

  it('is false once the chat sets its own window', () => {
    expect(windowAssumed({ modelKnown: false }, { contextWindow: 32_768 })).toBe(false)
  })

  it('is false for a known model, and while nothing is counted yet', () => {
    expect(windowAssumed({ modelKnown: true }, { contextWindow: null })).toBe(false)
    expect(windowAssumed(undefined, { contextWindow: null })).toBe(false)
  })
})
