import { create } from 'zustand'
import {
  attachmentKind,
  attachmentRefusal,
  MAX_ATTACHMENTS_PER_MESSAGE,
  TOO_MANY_ATTACHMENTS
} from '../../../../shared/domain/attachments'
import type { AttachmentPart } from '../../../../shared/domain/chat-message'
import { api } from '../../api/client'
import { errorMessage } from '../../api/api-error'

/** A file in the composer: uploading, or stored and ready to go with the next message. */
export interface PendingAttachment {
  key: string
  filename: string
  mediaType: string
  size: number
  status: 'uploading' | 'ready'
  part?: AttachmentPart
  /** A data URL of an image, for its thumbnail in the composer. */
  preview?: string
}

interface AttachmentsState {
  /** Per chat, the files attached to the draft. */
  pending: Record<string, PendingAttachment[]>
  /** Stored files' data URLs, by hash: thumbnails and the viewer. */
  contents: Record<string, string>
  /** Checks and uploads files; resolves with the sentences for those refused. */
  attach(sessionId: string, files: readonly File[]): Promise<string[]>
  /** Puts a stored file back on the draft ("Attach again"); resolves with the refusal, if any. */
  reattach(sessionId: string, part: AttachmentPart): string | null
  remove(sessionId: string, key: string): void
  clear(sessionId: string): void
  /** A stored file as a data URL, fetched once. */
  load(hash: string): Promise<string>
}

let nextKey = 0

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'))
    reader.readAsDataURL(file)
  })
}

/** A pasted image comes named "image.png"; give it a name a user can tell apart. */
function nameOf(file: File): string {
  if (file.name && file.name !== 'image.png') return file.name
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png'
  const stamp = new Date().toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '.')
  return `Pasted image ${stamp}.${ext}`
}

const loading = new Map<string, Promise<string>>()

/**
 * The sentence refusing an image for the chat's current model (which models can see), or null when
 * it takes images. Asked when an image is attached, so it is refused before it is uploaded, not
 * when the message is sent. A failed check lets the server decide on send.
 */
export async function imageRefusal(sessionId: string): Promise<string | null> {
  try {
    return (await api.request('attachments.accepts', { sessionId })).imageRefusal
  } catch {
    return null
  }
}

export const useAttachmentsStore = create<AttachmentsState>()((set, get) => ({
  pending: {},
  contents: {},

  async attach(sessionId, files) {
    const refusals: string[] = []
    const room = MAX_ATTACHMENTS_PER_MESSAGE - (get().pending[sessionId]?.length ?? 0)
    if (files.length > room) refusals.push(TOO_MANY_ATTACHMENTS)
    const accepted = files.slice(0, Math.max(0, room))
    const visionRefusal = accepted.some((f) => attachmentKind(f.type, f.name) === 'image')
      ? await imageRefusal(sessionId)
      : null
    const uploads = accepted.map(async (file) => {
      const filename = nameOf(file)
      const refusal =
        attachmentRefusal({ filename, mediaType: file.type, size: file.size }) ??
        (visionRefusal && attachmentKind(file.type, filename) === 'image'
          ? `“${filename}” is an image. ${visionRefusal}`
          : null)
      if (refusal) {
        refusals.push(refusal)
        return
      }
      const key = `a${++nextKey}`
      const item: PendingAttachment = { key, filename, mediaType: file.type, size: file.size, status: 'uploading' }
      set((s) => ({ pending: { ...s.pending, [sessionId]: [...(s.pending[sessionId] ?? []), item] } }))
      const update = (patch: Partial<PendingAttachment> | null) =>
        set((s) => ({
          pending: {
            ...s.pending,
            [sessionId]: (s.pending[sessionId] ?? []).flatMap((p) =>
              p.key !== key ? [p] : patch ? [{ ...p, ...patch }] : []
            )
          }
        }))
      try {
        const dataUrl = await readAsDataUrl(file)
        const data = dataUrl.slice(dataUrl.indexOf(',') + 1)
        const part = await api.request('attachments.upload', { filename, mediaType: file.type, data })
        if (part.mediaType.startsWith('image/'))
          set((s) => ({
            contents: { ...s.contents, [part.hash!]: dataUrl.replace(/^data:[^;]*;/, `data:${part.mediaType};`) }
          }))
        update({
          status: 'ready',
          part,
          mediaType: part.mediaType,
          filename: part.filename,
          ...(part.mediaType.startsWith('image/') ? { preview: get().contents[part.hash!] } : {})
        })
      } catch (error) {
        update(null)
        refusals.push(errorMessage(error))
      }
    })
    await Promise.all(uploads)
    return refusals
  },

  reattach(sessionId, part) {
    const current = get().pending[sessionId] ?? []
    if (current.some((p) => p.part?.hash === part.hash && p.filename === part.filename)) return null
    if (current.length >= MAX_ATTACHMENTS_PER_MESSAGE) return TOO_MANY_ATTACHMENTS
    const item: PendingAttachment = {
      key: `a${++nextKey}`,
      filename: part.filename,
      mediaType: part.mediaType,
      size: part.size,
      status: 'ready',
      part,
      ...(part.hash && get().contents[part.hash] && part.mediaType.startsWith('image/')
        ? { preview: get().contents[part.hash] }
        : {})
    }
    set((s) => ({ pending: { ...s.pending, [sessionId]: [...current, item] } }))
    return null
  },

  remove(sessionId, key) {
    set((s) => ({ pending: { ...s.pending, [sessionId]: (s.pending[sessionId] ?? []).filter((p) => p.key !== key) } }))
  },

  clear(sessionId) {
    set((s) => {
      const { [sessionId]: _gone, ...rest } = s.pending
      return { pending: rest }
    })
  },

  load(hash) {
    const known = get().contents[hash]
    if (known) return Promise.resolve(known)
    let running = loading.get(hash)
    if (!running) {
      running = api
        .request('attachments.content', { hash })
        .then(({ mediaType, data }) => {
          const url = `data:${mediaType};base64,${data}`
          set((s) => ({ contents: { ...s.contents, [hash]: url } }))
          return url
        })
        .finally(() => loading.delete(hash))
      loading.set(hash, running)
    }
    return running
  }
}))
