import { z } from 'zod'
import {
  MAX_MESSAGE_CHARS,
  MESSAGE_TOO_LONG,
  messagePartSchema,
  messageRoleSchema,
  messageStatusSchema
} from '../../shared/domain/chat-message'
import { providerIdSchema } from '../../shared/domain/provider'
import { sessionTitleSchema, strategySchema } from '../../shared/domain/session'
import { snapshotSchema } from '../../shared/domain/snapshot'
import { ImportError } from './openai-messages'

export const DISTILL_EXPORT_FORMAT = 'distill-chat'
/**
 * 1: the conversation as it stands. 2: also the versions set aside (`versions`, and each message's
 * `seq` and `versionGroup`). An export is written as version 1 when the chat has no other versions,
 * so any Distill reads it whole; one that has them says 2, so an older Distill refuses it rather
 * than dropping them.
 */
export const DISTILL_EXPORT_VERSION = 2

/**
 * One exported message: OpenAI chat format (role, content, tool_calls, tool_call_id) so other tools
 * can read it, plus Distill's own fields. `parts` is the exact stored content, which is what an
 * import restores; the OpenAI fields are derived from it.
 */
const exportedMessageSchema = z
  .object({
    role: messageRoleSchema,
    content: z.string().nullable(),
    tool_calls: z
      .array(
        z.object({
          id: z.string(),
          type: z.literal('function'),
          function: z.object({ name: z.string(), arguments: z.string() })
        })
      )
      .optional(),
    tool_call_id: z.string().optional(),
    id: z.string().min(1),
    createdAt: z.number().int(),
    status: messageStatusSchema,
    parts: z.array(messagePartSchema),
    error: z.object({ code: z.string(), message: z.string() }).nullable().optional(),
    usage: z.object({ inputTokens: z.number().int().nullable(), outputTokens: z.number().int().nullable() }).optional(),
    /** Its place in the chat (version 2; older exports: the order of `messages`). */
    seq: z.number().int().positive().optional(),
    /** The id of the first version of this message, when it has several. */
    versionGroup: z.string().min(1).optional(),
    /** When the user pinned it (sent verbatim in every request); absent in older exports. */
    pinnedAt: z.number().int().optional()
  })
  .loose()
export type ExportedMessage = z.infer<typeof exportedMessageSchema>

/** A message of a version not in use: one of the turns of the version whose id `hiddenIn` names. */
const setAsideMessageSchema = exportedMessageSchema.extend({
  hiddenIn: z.string().min(1),
  seq: z.number().int().positive()
})
export type SetAsideMessage = z.infer<typeof setAsideMessageSchema>

const exportedSnapshotSchema = snapshotSchema.omit({ sessionId: true, cutoffSeq: true })
export type ExportedSnapshot = z.infer<typeof exportedSnapshotSchema>

/**
 * A stored file the messages attach, with its bytes: an import stores it again by its hash, so the
 * chat comes back with its images and files, not just their names.
 */
const exportedAttachmentSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'not a sha-256'),
  mediaType: z.string().min(1).max(200),
  size: z.number().int().nonnegative(),
  /** The bytes, base64. */
  data: z.string()
})
export type ExportedAttachment = z.infer<typeof exportedAttachmentSchema>

export const distillExportSchema = z.object({
  format: z.literal(DISTILL_EXPORT_FORMAT),
  version: z.union([z.literal(1), z.literal(DISTILL_EXPORT_VERSION)]),
  exportedAt: z.string(),
  session: z
    .object({
      id: z.string(),
      title: sessionTitleSchema,
      systemPrompt: z.string().nullable(),
      provider: providerIdSchema.nullable(),
      modelId: z.string().nullable(),
      strategy: strategySchema.nullable(),
      autoCompress: z.boolean().nullable(),
      createdAt: z.number().int(),
      updatedAt: z.number().int(),
      /** The name of the project the chat was in: an import joins the project of that name, or makes it. */
      project: z.string().trim().min(1).max(100).optional()
    })
    .loose(),
  /** The conversation as it stands (OpenAI readers see the chat as the user last saw it). */
  messages: z.array(exportedMessageSchema),
  /** Version 2: the messages of the versions not in use, each naming the version it belongs to. */
  versions: z.array(setAsideMessageSchema).optional(),
  snapshots: z.array(exportedSnapshotSchema),
  /** Absent in exports made before files were exported: the parts then name files the import lacks. */
  attachments: z.array(exportedAttachmentSchema).optional()
})
export type DistillExport = z.infer<typeof distillExportSchema>

/** True when parsed JSON claims to be a Distill chat export (it is validated in full afterwards). */
export function isDistillExport(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { format?: unknown }).format === DISTILL_EXPORT_FORMAT
}

/** True when the file's text is a Distill chat export, without parsing the whole file twice in the common case. */
export function looksLikeDistillExport(text: string): boolean {
  if (!text.trimStart().startsWith('{') || !text.includes(`"${DISTILL_EXPORT_FORMAT}"`)) return false
  try {
    return isDistillExport(JSON.parse(text))
  } catch {
    return false
  }
}

/**
 * Validates a Distill export. A newer version is refused with a sentence saying so (never half-read);
 * snapshots that point at messages the file does not hold are refused too.
 */
/** Characters of a message's text parts (what the send limit counts). */
const messageChars = (parts: readonly { type: string; text?: string }[]) =>
  parts.reduce((n, p) => n + (p.type === 'text' ? (p.text?.length ?? 0) : 0), 0)

export function parseDistillExport(text: string): DistillExport {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    // Distill's Markdown export is for reading: say so rather than quote the parser.
    if (/^\s*#/.test(text.slice(0, 200)))
      throw new ImportError(
        "This is a Markdown file: only Distill's JSON export (Export as JSON, or `distill export --format json`) imports a chat; the Markdown export is for reading."
      )
    throw new ImportError(`The file is not valid JSON: ${(err as Error).message}`)
  }
  if (!isDistillExport(data))
    throw new ImportError('The file is not a Distill chat export (no "format": "distill-chat").')
  const version = (data as { version?: unknown }).version
  if (typeof version === 'number' && version > DISTILL_EXPORT_VERSION) {
    throw new ImportError(
      `This export is version ${version}; this Distill reads version ${DISTILL_EXPORT_VERSION}. Update Distill to import it.`
    )
  }
  const parsed = distillExportSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : ''
    throw new ImportError(`The Distill export is malformed${where}: ${issue.message}`)
  }
  const all = [...parsed.data.messages, ...(parsed.data.versions ?? [])]
  // The limit a send holds to holds here too: a longer message stalled every request of its chat.
  const huge = all.findIndex((m) => messageChars(m.parts) > MAX_MESSAGE_CHARS)
  if (huge >= 0) {
    throw new ImportError(
      `Message ${huge + 1} of the export has ${messageChars(all[huge]!.parts).toLocaleString('en-US')} characters; ${MESSAGE_TOO_LONG.toLowerCase()}. Nothing was imported.`
    )
  }
  const ids = new Set(all.map((m) => m.id))
  if (ids.size !== all.length) throw new ImportError('The Distill export lists a message id twice.')
  checkVersions(parsed.data, ids)
  const snapshotIds = new Set(parsed.data.snapshots.map((s) => s.id))
  if (snapshotIds.size !== parsed.data.snapshots.length)
    throw new ImportError('The Distill export lists a summary id twice.')
  for (const s of parsed.data.snapshots) {
    // Every message a summary names must be the export's own: the import points them at the copy's rows.
    const refs = [s.messageCutoffId, s.content.messageRange.firstMessageId, s.content.messageRange.lastMessageId]
    const missing = refs.find((r) => r !== null && !ids.has(r))
    if (missing !== undefined)
      throw new ImportError(
        `Summary ${s.id} refers to message ${missing || '(none)'}, which the export does not contain.`
      )
  }
  return parsed.data
}

/** Versions name messages the file holds, and every message has its own place (seq) when there are versions. */
function checkVersions(data: DistillExport, ids: ReadonlySet<string>): void {
  const versions = data.versions ?? []
  for (const m of [...data.messages, ...versions]) {
    const ref = [m.versionGroup, 'hiddenIn' in m ? (m.hiddenIn as string) : undefined].find(
      (r) => r !== undefined && !ids.has(r)
    )
    if (ref !== undefined)
      throw new ImportError(`Message ${m.id} refers to message ${ref}, which the export does not contain.`)
  }
  const seqs = [...data.messages, ...versions].map((m) => m.seq)
  if (seqs.includes(undefined)) {
    if (versions.length) throw new ImportError('The Distill export has other versions but no seq for every message.')
    return
  }
  if (new Set(seqs).size !== seqs.length) throw new ImportError('The Distill export gives two messages the same seq.')
}

/** A message of an export with its place and versions, in the order the chat stores them. */
export interface PlacedMessage {
  message: ExportedMessage
  seq: number
  versionGroup: string | null
  hiddenIn: string | null
}

/**
 * Every message of an export in seq order, the versions set aside included. A version 1 file (or
 * one without seqs) is the conversation in order: seq 1, 2, ….
 */
export function placedMessages(data: DistillExport): PlacedMessage[] {
  const seqs = data.messages.every((m) => m.seq !== undefined)
  const placed: PlacedMessage[] = data.messages.map((m, i) => ({
    message: m,
    seq: seqs ? m.seq! : i + 1,
    versionGroup: m.versionGroup ?? null,
    hiddenIn: null
  }))
  for (const m of data.versions ?? [])
    placed.push({ message: m, seq: m.seq, versionGroup: m.versionGroup ?? null, hiddenIn: m.hiddenIn })
  return placed.sort((a, b) => a.seq - b.seq)
}
