import { webcrypto } from 'node:crypto'
import { writeFile as writeFileAsync } from 'node:fs/promises'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { and, eq, inArray, lt, notExists, or, sql } from 'drizzle-orm'
import { AppError } from '../../shared/app-error'
import {
  attachmentKind,
  attachmentManifest,
  attachmentRefusal,
  ATTACHMENT_TYPES_SENTENCE,
  cleanFilename,
  MAX_ATTACHMENT_BYTES,
  textMediaType,
  type ManifestItem
} from '../../shared/domain/attachments'
import type { AttachmentPart, MessagePart } from '../../shared/domain/chat-message'
import type { Db } from '../db/client'
import { attachments, chatMessages, messageAttachments, type AttachmentRow } from '../db/schema'
import { hasChunks, indexChunks, insertChunks } from '../db/repositories/attachment-chunks-repo'
import { countTextTokensAsync } from '../tokens/encoders'
import { chunkText, textChunks } from './chunk-text'
import { decodeBase64InSlices } from './decode-base64'
import { describePdf, describeText } from './describe-attachment'
import { readPdf } from './pdf/pdf-thread'
import { decodeText, decodeTextInSlices, isPdf, sniffImage } from './sniff-file'

/** An upload nothing has referenced yet (a draft's file) is kept this long before a sweep removes it. */
export const UNSENT_GRACE_MS = 24 * 60 * 60 * 1000
const HASH = /^[0-9a-f]{64}$/
/** Passages indexed per transaction on upload (a few ms of FTS5 work), the event loop given back between. */
const CHUNK_BATCH = 20
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

export interface AttachmentStoreOptions {
  db: Db
  /** The folder the files live in: `attachments/` beside the database. */
  dir: string
  now: () => number
}

export type AttachmentStore = ReturnType<typeof createAttachmentStore>

/**
 * Content-addressed attachments: the bytes in `dir/ab/cdef…` (named by their sha-256), one row per
 * file in `attachments`. The same bytes attached twice are stored once.
 */
export function createAttachmentStore({ db, dir, now }: AttachmentStoreOptions) {
  const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash.slice(2))

  async function writeFile(hash: string, bytes: Uint8Array): Promise<void> {
    const file = pathOf(hash)
    if (existsSync(file) && statSync(file).size === bytes.length) return
    mkdirSync(join(dir, hash.slice(0, 2)), { recursive: true, mode: 0o700 })
    // Written aside and renamed: a crash leaves the old file or the whole new one, never half.
    // Off the event loop: a 5 MB file is several milliseconds of disk every other request would wait for.
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    await writeFileAsync(temp, bytes, { mode: 0o600 })
    renameSync(temp, file)
  }

  /** Checks what the bytes are (not what the name says) and what they hold: pages, pixels. */
  async function inspect(filename: string, claimed: string, bytes: Uint8Array) {
    const refusal = attachmentRefusal({ filename, mediaType: claimed, size: bytes.length })
    const image = sniffImage(bytes)
    if (image) {
      if (bytes.length > MAX_ATTACHMENT_BYTES || bytes.length === 0) throw new AppError('invalid_input', refusal!)
      return { mediaType: image.mediaType, width: image.width, height: image.height }
    }
    if (isPdf(bytes)) {
      if (refusal && bytes.length > MAX_ATTACHMENT_BYTES) throw new AppError('invalid_input', refusal)
      // Read on a thread of its own, within limits: a 14,000-page file neither blocks nor exhausts the app.
      const pdf = await readPdf(bytes)
      if (pdf === null)
        throw new AppError('invalid_input', `“${filename}” could not be read as a PDF. It may be damaged or encrypted.`)
      // Its text, for the manifest's line and recall; a PDF of scans has none, which is no error.
      const { pages, texts } = pdf
      const text = texts.map((t, i) => `[page ${i + 1}]\n${t}`).join('\n\n')
      return {
        mediaType: 'application/pdf',
        pages,
        description: describePdf(texts, pages),
        text: texts.some((t) => t.trim()) ? text : null
      }
    }
    if (refusal) throw new AppError('invalid_input', refusal)
    const kind = attachmentKind(claimed, filename)
    if (kind === 'image')
      throw new AppError('invalid_input', `“${filename}” is not a PNG, JPEG, WebP or GIF image the way its name says.`)
    if (kind === 'pdf')
      throw new AppError('invalid_input', `“${filename}” could not be read as a PDF. It may be damaged or encrypted.`)
    const text = await decodeTextInSlices(bytes)
    if (text === null) {
      throw new AppError(
        'invalid_input',
        `“${filename}” holds binary data, not text. Distill takes ${ATTACHMENT_TYPES_SENTENCE}.`
      )
    }
    return { mediaType: textMediaType(claimed), description: describeText(text, filename), text }
  }

  /** indexChunks for a file of any size without holding the event loop for it: passages are cut as they are written. */
  async function indexInBatches(hash: string, text: string): Promise<void> {
    if (hasChunks(db, hash)) return
    let batch: string[] = []
    let first = 0
    for (const chunk of textChunks(text)) {
      batch.push(chunk)
      if (batch.length < CHUNK_BATCH) continue
      insertChunks(db, hash, batch, first)
      first += batch.length
      batch = []
      await nextTurn()
    }
    if (batch.length) insertChunks(db, hash, batch, first)
  }

  /** Stores a file (or finds it stored) and returns the message part that attaches it. */
  async function upload(input: { filename: string; mediaType: string; data: Uint8Array }): Promise<AttachmentPart> {
    const filename = cleanFilename(input.filename)
    const { text, ...info } = await inspect(filename, input.mediaType, input.data)
    // Hashed in the thread pool (WebCrypto), not on the event loop.
    const hash = Buffer.from(await webcrypto.subtle.digest('SHA-256', input.data)).toString('hex')
    await writeFile(hash, input.data)
    const at = now()
    const row = {
      mediaType: info.mediaType,
      pages: info.pages ?? null,
      width: info.width ?? null,
      height: info.height ?? null,
      description: info.description ?? null
    }
    // Uploading again marks it unsent, so a sweep after another chat's deletion keeps it for this draft.
    db.insert(attachments)
      .values({ hash, size: input.data.length, createdAt: at, ...row })
      .onConflictDoUpdate({
        target: attachments.hash,
        set: { used: false, createdAt: at, description: row.description }
      })
      .run()
    if (text) {
      // Counted now, in slices, so sending it later finds the count remembered (chat-attachments.ts).
      if (attachmentKind(info.mediaType, filename) === 'text') await countTextTokensAsync(text, 'o200k_base')
      await indexInBatches(hash, text)
    }
    const part: AttachmentPart = {
      type: 'attachment',
      filename,
      mediaType: info.mediaType,
      size: input.data.length,
      hash
    }
    if (info.pages !== undefined) part.pages = info.pages
    if (info.width && info.height) Object.assign(part, { width: info.width, height: info.height })
    return part
  }

  return {
    dir,
    pathOf,

    upload,

    /** An upload as the contract carries it (base64), decoded a slice per turn of the event loop. */
    async uploadBase64(input: { filename: string; mediaType: string; data: string }): Promise<AttachmentPart> {
      return upload({ ...input, data: await decodeBase64InSlices(input.data) })
    },

    /**
     * Indexes for recall the text files stored before the index existed (their description too).
     * PDFs need an async read and are left to their next upload.
     */
    indexStored(): number {
      let indexed = 0
      for (const row of db.select().from(attachments).all()) {
        if (attachmentKind(row.mediaType, 'file') !== 'text' || hasChunks(db, row.hash)) continue
        let text: string | null
        try {
          text = decodeText(readFileSync(pathOf(row.hash)))
        } catch {
          continue
        }
        if (!text) continue
        indexChunks(db, row.hash, chunkText(text))
        if (row.description === null)
          db.update(attachments)
            .set({ description: describeText(text) })
            .where(eq(attachments.hash, row.hash))
            .run()
        indexed++
      }
      return indexed
    },

    describe(hash: string): AttachmentRow | undefined {
      return HASH.test(hash) ? db.select().from(attachments).where(eq(attachments.hash, hash)).get() : undefined
    },

    /**
     * The messages of a chat (on the conversation's path) with stored files, within a seq range.
     * Driven by the reference table, so a long chat's text is never read for it.
     */
    attachedMessages(sessionId: string, range: { after?: number; upTo?: number }) {
      // Driven from the attachment rows (CROSS JOIN fixes the order): the planner otherwise walks
      // every message of the chat to probe for attachments, 100 ms at 100,000 messages for none.
      const rows = db.all<{ id: string; seq: number; role: string; createdAt: number; parts: string }>(sql`
        SELECT DISTINCT m.id AS id, m.seq AS seq, m.role AS role, m.created_at AS createdAt, m.parts AS parts
          FROM ${messageAttachments} a CROSS JOIN ${chatMessages} m ON m.id = a.message_id
         WHERE m.session_id = ${sessionId} AND m.hidden_in IS NULL
           ${range.upTo !== undefined ? sql`AND m.seq <= ${range.upTo}` : sql``}
           ${range.after !== undefined ? sql`AND m.seq > ${range.after}` : sql``}
         ORDER BY m.seq`)
      return rows.map((r) => ({ ...r, parts: JSON.parse(r.parts) as MessagePart[] }))
    },

    /** The files of a chat's summarized messages (seq ≤ cutoff): the manifest. */
    summarized(sessionId: string, cutoffSeq: number): ManifestItem[] {
      if (cutoffSeq <= 0) return []
      // Parts sent before descriptions existed take the file's own, where the store has one.
      return attachmentManifest(this.attachedMessages(sessionId, { upTo: cutoffSeq }), cutoffSeq).map((item) => {
        if (item.description || !item.hash) return item
        const description = this.describe(item.hash)?.description
        return description ? { ...item, description } : item
      })
    },

    /** The stored bytes; not_found when the file is gone. */
    read(hash: string): Buffer {
      if (!HASH.test(hash)) throw new AppError('not_found', 'That attachment is not stored.')
      try {
        return readFileSync(pathOf(hash))
      } catch {
        throw new AppError('not_found', 'That attachment is no longer stored.')
      }
    },

    /**
     * Removes files nothing references: those whose messages were deleted, and uploads never sent
     * within the grace period. With `orphanFiles`, also files on disk without a row (a crash between
     * writing the file and its row). Returns the hashes removed.
     */
    sweep(options: { orphanFiles?: boolean } = {}): string[] {
      const unreferenced = notExists(
        db
          .select({ one: sql`1` })
          .from(messageAttachments)
          .where(eq(messageAttachments.hash, attachments.hash))
      )
      const gone = db
        .select({ hash: attachments.hash })
        .from(attachments)
        .where(and(unreferenced, or(eq(attachments.used, true), lt(attachments.createdAt, now() - UNSENT_GRACE_MS))))
        .all()
        .map((r) => r.hash)
      for (let i = 0; i < gone.length; i += 500) {
        db.delete(attachments)
          .where(inArray(attachments.hash, gone.slice(i, i + 500)))
          .run()
      }
      for (const hash of gone) rmSync(pathOf(hash), { force: true })
      if (options.orphanFiles) gone.push(...removeOrphanFiles())
      return gone
    }
  }

  function removeOrphanFiles(): string[] {
    if (!existsSync(dir)) return []
    const removed: string[] = []
    for (const prefix of readdirSync(dir)) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue
      for (const name of readdirSync(join(dir, prefix))) {
        const file = join(dir, prefix, name)
        const hash = prefix + name
        const old = statSync(file).mtimeMs < now() - UNSENT_GRACE_MS
        if (
          name.endsWith('.tmp')
            ? old
            : HASH.test(hash) &&
              old &&
              !db.select({ h: attachments.hash }).from(attachments).where(eq(attachments.hash, hash)).get()
        ) {
          rmSync(file, { force: true })
          removed.push(hash)
        }
      }
    }
    return removed
  }
}

/** The folder of a database's attachments, beside it; created (0700) with the first file. */
export function attachmentsDir(dbDir: string): string {
  return join(dbDir, 'attachments')
}
