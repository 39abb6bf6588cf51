import type { FilePart, ModelMessage, TextPart, UserContent } from 'ai'
import { attachmentKind, cleanFilename, formatBytes } from '../../shared/domain/attachments'
import { ATTACHMENT_URL_PROTOCOL } from '../providers/to-model-messages'
import { readPdf } from './pdf/pdf-thread'

/** Providers whose APIs read a PDF themselves (text and page images); others get its text. */
export const NATIVE_PDF_PROVIDERS: ReadonlySet<string> = new Set(['openai', 'anthropic', 'google'])

export interface AttachmentSource {
  read(hash: string): Uint8Array
}

function placeholderHash(part: Exclude<UserContent, string>[number]): string | null {
  if (part.type !== 'file' || !(part.data instanceof URL) || part.data.protocol !== ATTACHMENT_URL_PROTOCOL) return null
  return part.data.pathname
}

/** A value inside a tag's attribute: a name can never close the attribute or the tag. */
const attribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * A file's content inside the wrapper: a closing tag in it (a file about this very format, or one
 * written to break out of it) is shown with an escaped slash, so only the wrapper ends the file.
 */
const fenced = (text: string) => text.replace(/<\/(attachment)/gi, '<\\/$1')

/** A text or code file as the model reads it: its name, then its content, fenced by tags it can quote. */
export function textAttachment(filename: string, mediaType: string, text: string): TextPart {
  return {
    type: 'text',
    text: `<attachment name="${attribute(cleanFilename(filename))}" type="${attribute(mediaType)}">\n${fenced(text)}\n</attachment>`
  }
}

async function resolvePart(
  part: FilePart,
  hash: string,
  provider: string,
  source: AttachmentSource,
  vision: boolean
): Promise<FilePart | TextPart> {
  // Names stored before they were cleaned on every route are cleaned again on the way out.
  const filename = cleanFilename(part.filename ?? 'file')
  const kind = attachmentKind(part.mediaType, filename)
  // An image earlier in a chat whose model was switched to one without vision: named, not sent.
  if (kind === 'image' && !vision)
    return { type: 'text', text: `[image: ${filename}: not shown, this model takes no images]` }
  let bytes: Uint8Array
  try {
    bytes = source.read(hash)
  } catch {
    return { type: 'text', text: `[attachment: ${filename}, ${part.mediaType}: the file is no longer stored]` }
  }
  if (kind === 'text') return textAttachment(filename, part.mediaType, new TextDecoder().decode(bytes))
  if (kind === 'pdf' && !NATIVE_PDF_PROVIDERS.has(provider)) {
    const pdf = await readPdf(bytes).catch(() => null)
    if (!pdf)
      return {
        type: 'text',
        text: `[attachment: ${filename}, PDF, ${formatBytes(bytes.length)}: its text could not be read]`
      }
    const text = pdf.texts.map((t, i) => `--- page ${i + 1} ---\n${t}`).join('\n')
    // What was left out is said where the model reads the file, so it does not answer as if it had read it all.
    return textAttachment(filename, 'application/pdf', pdf.omitted ? `${text}\n--- ${pdf.omitted} ---` : text)
  }
  return { type: 'file', data: bytes, mediaType: part.mediaType, filename }
}

/**
 * Replaces the attachment placeholders of a request with what the provider takes: images and PDFs
 * as file parts (the AI SDK writes each provider's wire format), a PDF's extracted text for
 * providers without PDF input, text files as text. Messages without attachments are returned as they are.
 */
export async function resolveAttachments(
  messages: ModelMessage[],
  provider: string,
  source: AttachmentSource,
  options: { vision: boolean } = { vision: true }
): Promise<ModelMessage[]> {
  return Promise.all(
    messages.map(async (m) => {
      if (m.role !== 'user' || typeof m.content === 'string' || !m.content.some((p) => placeholderHash(p) !== null))
        return m
      const content = await Promise.all(
        m.content.map((p) => {
          const hash = placeholderHash(p)
          return hash === null ? p : resolvePart(p as FilePart, hash, provider, source, options.vision)
        })
      )
      return { ...m, content }
    })
  )
}
