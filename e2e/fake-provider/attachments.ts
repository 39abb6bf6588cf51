import { createHash } from 'node:crypto'
import type { RecordedAttachment } from './types'

type Wire = RecordedAttachment['wire']

function fromBase64(
  wire: Wire,
  mediaType: string,
  data: string,
  filename?: string
): Omit<RecordedAttachment, 'message' | 'role'> {
  const bytes = Buffer.from(data, 'base64')
  return {
    wire,
    mediaType,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    ...(filename ? { filename } : {})
  }
}

/** `data:image/png;base64,…` → its type and payload; a plain URL keeps the URL as its type. */
function fromDataUrl(wire: Wire, url: string, filename?: string) {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url)
  return m
    ? fromBase64(wire, m[1]!, m[2]!, filename)
    : { wire, mediaType: 'url', bytes: 0, sha256: '', url, ...(filename ? { filename } : {}) }
}

/**
 * One content part as an attachment, in any of the wire formats the fake speaks: OpenAI chat
 * (`image_url`, `file`), OpenAI Responses (`input_image`, `input_file`), Anthropic (`image`,
 * `document` with a base64 source) and Gemini (`inlineData`). null for text and tool parts.
 */
export function attachmentOf(part: unknown): Omit<RecordedAttachment, 'message' | 'role'> | null {
  if (!part || typeof part !== 'object') return null
  const p = part as Record<string, unknown>
  const rec = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {})
  if (p.type === 'image_url' && p.image_url) return fromDataUrl('image_url', String(rec(p.image_url).url ?? ''))
  if (p.type === 'file' && p.file)
    return fromDataUrl('file', String(rec(p.file).file_data ?? ''), rec(p.file).filename as string | undefined)
  if (p.type === 'input_image') return fromDataUrl('input_image', String(p.image_url ?? ''))
  if (p.type === 'input_file')
    return fromDataUrl('input_file', String(p.file_data ?? ''), p.filename as string | undefined)
  if ((p.type === 'image' || p.type === 'document') && p.source) {
    const s = rec(p.source)
    if (s.type === 'base64')
      return fromBase64(
        p.type as Wire,
        String(s.media_type),
        String(s.data),
        typeof p.title === 'string' ? p.title : undefined
      )
    return { wire: p.type as Wire, mediaType: String(s.type), bytes: 0, sha256: '' }
  }
  if (p.inlineData || p.inline_data) {
    const d = rec(p.inlineData ?? p.inline_data)
    return fromBase64('inline_data', String(d.mimeType ?? d.mime_type), String(d.data))
  }
  return null
}

/** The attachments of one message's content (an array of parts; a string has none). */
export function attachmentsOf(content: unknown): Omit<RecordedAttachment, 'message' | 'role'>[] {
  return Array.isArray(content) ? content.map(attachmentOf).filter((a) => a !== null) : []
}
