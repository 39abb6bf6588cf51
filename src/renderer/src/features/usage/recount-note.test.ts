import { describe, expect, it } from 'vitest'
import { recountNote } from './recount-note'

describe('the note while a history is recounted', () => {
  it('says nothing when no recount runs, and how far one is', () => {
    expect(recountNote({ recounting: false, recountProgress: null })).toBeUndefined()
    expect(recountNote({ recounting: true, recountProgress: 0.404 })).toMatch(
      /^Estimate — recounting the history for this model \(40%\)\./
    )
  })
})
