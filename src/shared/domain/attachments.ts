/**
 * What can be attached, and how much. Shared by the composer (which checks before uploading) and
 * the main process (which checks again, trusting nothing the renderer says about a file).
 */

/** One file's bytes at most: 5 MB, Anthropic's limit for an image, and well within the 8 MB API body as base64. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024
/** Attachments in one message at most. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10

export type AttachmentKind = 'image' | 'pdf' | 'text'

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const

/** Text formats that browsers label with a MIME type outside text/*. */
const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/typescript',
  'application/x-sh',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/sql',
  'application/x-python-code'
])

/** Code and text files by extension, for the many a browser gives no MIME type (or a wrong one: .ts as video/mp2t). */
const TEXT_EXTENSIONS = new Set(
  (
    'txt md markdown csv tsv json jsonl xml yaml yml toml ini cfg conf log env sql html htm css scss less ' +
    'js mjs cjs jsx ts tsx mts cts py rb go rs java kt kts swift c h cc cpp hpp cs php pl lua r m scala sh bash zsh ' +
    'fish ps1 bat dockerfile makefile gradle vue svelte tex rst adoc org diff patch graphql proto gitignore'
  ).split(' ')
)

// Control characters, and the bidirectional controls that make "invoice\u202Etxt.exe" display as
// "invoiceexe.txt": a name shown to the user or the model carries none of them.
// eslint-disable-next-line no-control-regex
const HIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** Text without control or bidirectional-control characters (what a file name or a description line may hold). */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, '')
}

/** A file name without its folders, control or bidirectional-control characters, at most 255 characters. */
export function cleanFilename(name: string): string {
  const base = withoutHiddenCharacters(name.split(/[\\/]/).pop() ?? '').trim()
  return (base === '.' || base === '..' || base === '' ? 'file' : base).slice(0, 255)
}

function extension(filename: string): string {
  const base = filename.toLowerCase().split(/[\\/]/).pop() ?? ''
  const dot = base.lastIndexOf('.')
  return dot >= 0 ? base.slice(dot + 1) : base
}

/** What a file is, by its MIME type and name; null when Distill does not take it. */
export function attachmentKind(mediaType: string, filename: string): AttachmentKind | null {
  const type = mediaType.toLowerCase().split(';')[0]!.trim()
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return 'image'
  if (type === 'application/pdf') return 'pdf'
  if (TEXT_EXTENSIONS.has(extension(filename))) return 'text'
  if (type.startsWith('text/') || TEXT_APPLICATION_TYPES.has(type)) return 'text'
  return null
}

/** The MIME type a text or code file is stored and sent with. */
export function textMediaType(mediaType: string): string {
  const type = mediaType.toLowerCase().split(';')[0]!.trim()
  return type.startsWith('text/') || TEXT_APPLICATION_TYPES.has(type) ? type : 'text/plain'
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

export const ATTACHMENT_TYPES_SENTENCE = 'images (PNG, JPEG, WebP, GIF), PDFs, and text or code files'

/** The sentence for a file Distill does not take, or is too large; null when it may be attached. */
export function attachmentRefusal(file: { filename: string; mediaType: string; size: number }): string | null {
  if (attachmentKind(file.mediaType, file.filename) === null) {
    return `“${file.filename}” can’t be attached. Distill takes ${ATTACHMENT_TYPES_SENTENCE}.`
  }
  if (file.size > MAX_ATTACHMENT_BYTES) {
    return `“${file.filename}” is ${formatBytes(file.size)}; a file can be up to ${formatBytes(MAX_ATTACHMENT_BYTES)}.`
  }
  if (file.size === 0) return `“${file.filename}” is empty.`
  return null
}

export const TOO_MANY_ATTACHMENTS = `A message can carry up to ${MAX_ATTACHMENTS_PER_MESSAGE} attachments.`

/** A short label for the file's type: "PNG", "PDF", "TypeScript"… */
export function attachmentTypeLabel(mediaType: string, filename: string): string {
  const kind = attachmentKind(mediaType, filename)
  if (kind === 'pdf') return 'PDF'
  if (kind === 'image') return mediaType.split('/')[1]!.toUpperCase().replace('JPEG', 'JPEG')
  const ext = extension(filename)
  return ext && ext !== filename.toLowerCase() ? ext.toUpperCase() : 'Text'
}

/** A file of a summarized message: it left the active context, and can be attached again. */
export interface ManifestItem {
  messageId: string
  seq: number
  role: string
  createdAt: number
  filename: string
  mediaType: string
  size: number
  pages?: number
  width?: number
  height?: number
  hash?: string
  /** One line of what it was (see AttachmentPart.description). */
  description?: string
}

interface ManifestSource {
  id: string
  seq: number
  role: string
  createdAt: number
  parts: readonly { type: string }[]
}

/** The attachments of the messages a summary stands for (seq ≤ cutoff), in order. */
export function attachmentManifest(messages: readonly ManifestSource[], cutoffSeq: number): ManifestItem[] {
  return messages
    .filter((m) => m.seq <= cutoffSeq)
    .flatMap((m) =>
      m.parts.flatMap((p) => {
        if (p.type !== 'attachment') return []
        const { type: _type, ...file } = p as unknown as Omit<
          ManifestItem,
          'messageId' | 'seq' | 'role' | 'createdAt'
        > & { type: string }
        return [{ messageId: m.id, seq: m.seq, role: m.role, createdAt: m.createdAt, ...file }]
      })
    )
}

export function attachmentsLeftSentence(count: number): string {
  return `${count} ${count === 1 ? 'attachment' : 'attachments'} left the active context`
}

/**
 * The manifest as the model reads it, after the summary: which files the summarized messages
 * carried, so it neither forgets them nor pretends to still see them.
 */
export function manifestText(items: readonly ManifestItem[]): string {
  if (items.length === 0) return ''
  const lines = items.map(
    (i) =>
      `- ${cleanFilename(i.filename)} (${attachmentTypeLabel(i.mediaType, i.filename)}${i.pages !== undefined ? `, ${i.pages} ${i.pages === 1 ? 'page' : 'pages'}` : ''}, ${formatBytes(i.size)}), ` +
      `attached by the ${i.role === 'user' ? 'user' : i.role} in message ${i.seq} on ${new Date(i.createdAt).toISOString().slice(0, 10)}` +
      (i.description ? `: ${withoutHiddenCharacters(i.description)}` : '')
  )
  return `Attachments in the summarized messages (no longer in your context; the user can attach them again):\n${lines.join('\n')}`
}
