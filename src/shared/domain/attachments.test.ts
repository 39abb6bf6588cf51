import { describe, expect, it } from 'vitest'
import {
  attachmentKind,
  attachmentManifest,
  attachmentRefusal,
  formatBytes,
  manifestText,
  MAX_ATTACHMENT_BYTES
} from './attachments'

describe('what can be attached', () => {
  it('takes images, PDFs, text and code (by name when the browser gives no type or a wrong one)', () => {
    expect(attachmentKind('image/webp', 'a.webp')).toBe('image')
    expect(attachmentKind('application/pdf', 'a.pdf')).toBe('pdf')
    expect(attachmentKind('video/mp2t', 'main.ts')).toBe('text')
    expect(attachmentKind('', 'Dockerfile')).toBe('text')
    expect(attachmentKind('application/json', 'data')).toBe('text')
    expect(attachmentKind('image/svg+xml', 'logo.svg')).toBeNull()
    expect(attachmentKind('application/zip', 'a.zip')).toBeNull()
  })

  it('refuses with a sentence naming the file and the limit', () => {
    expect(attachmentRefusal({ filename: 'a.zip', mediaType: 'application/zip', size: 10 })).toBe(
      '“a.zip” can’t be attached. Distill takes images (PNG, JPEG, WebP, GIF), PDFs, and text or code files.'
    )
    expect(attachmentRefusal({ filename: 'big.png', mediaType: 'image/png', size: 7 * 1024 * 1024 })).toBe(
      '“big.png” is 7.0 MB; a file can be up to 5.0 MB.'
    )
    expect(attachmentRefusal({ filename: 'empty.txt', mediaType: 'text/plain', size: 0 })).toBe('“empty.txt” is empty.')
    expect(attachmentRefusal({ filename: 'ok.png', mediaType: 'image/png', size: MAX_ATTACHMENT_BYTES })).toBeNull()
    expect(formatBytes(1536)).toBe('1.5 KB')
  })

  it('lists the files of summarized messages only, for the model in one line each', () => {
    const messages = [
      {
        id: 'm1',
        seq: 1,
        role: 'user',
        createdAt: Date.UTC(2026, 4, 3),
        parts: [{ type: 'attachment', filename: 'a.pdf', mediaType: 'application/pdf', size: 2048, pages: 2 }]
      },
      {
        id: 'm2',
        seq: 2,
        role: 'user',
        createdAt: Date.UTC(2026, 4, 4),
        parts: [{ type: 'attachment', filename: 'b.png', mediaType: 'image/png', size: 10 }]
      }
    ]
    const items = attachmentManifest(messages, 1)
    expect(items.map((i) => i.filename)).toEqual(['a.pdf'])
    expect(manifestText(items)).toBe(
      'Attachments in the summarized messages (no longer in your context; the user can attach them again):\n' +
        '- a.pdf (PDF, 2 pages, 2.0 KB), attached by the user in message 1 on 2026-05-03'
    )
  })
})
