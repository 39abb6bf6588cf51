import { describe, expect, it } from 'vitest'
import { toModelMessages } from './to-model-messages'

describe('toModelMessages with attachments', () => {
  it('a stored file becomes a placeholder file part after the text; a name-only file stays a line; plain text stays a string', () => {
    const hash = 'c'.repeat(64)
    const [withFile, nameOnly, plain] = toModelMessages([
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'Look' },
          { type: 'attachment', filename: 'a.png', mediaType: 'image/png', size: 5, hash }
        ]
      },
      { role: 'user', parts: [{ type: 'attachment', filename: 'old.pdf', mediaType: 'application/pdf', size: 9 }] },
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] }
    ])
    expect(withFile).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'file', data: new URL(`distill-attachment:${hash}`), mediaType: 'image/png', filename: 'a.png' }
      ]
    })
    expect(nameOnly).toEqual({ role: 'user', content: '[attachment: old.pdf, application/pdf, 9 bytes]' })
    expect(plain).toEqual({ role: 'user', content: 'hi' })
  })
})
