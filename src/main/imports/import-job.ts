import { createHash } from 'node:crypto'
import type { AttachmentPart, MessagePart } from '../../shared/domain/chat-message'
import type { SummaryContent } from '../../shared/domain/snapshot'
import type { Db } from '../db/client'
import { restoreChat, type ChatToRestore } from '../db/repositories/restore-repo'
import type { ImportRecord } from '../db/repositories/imports-repo'
import { parseDistillExport, placedMessages, type DistillExport } from './distill-export'
import { ImportError } from './openai-messages'
import type { ModelSpec } from '../models/catalog'
import { countMessage } from '../tokens/message-tokens'
import { computeBudget } from '../engine/budget'
import { pinSharePercent } from '../engine/pinned'

/** A file of an export, checked: its bytes are what its hash says. */
export interface ImportedFile {
  hash: string
  mediaType: string
  /** The name a message attached it under, for messages about it. */
  filename: string
  bytes: Uint8Array
}

/** What the main thread needs of a parsed export; the messages stay where they were parsed. */
export interface PreparedImport {
  contentHash: string
  session: DistillExport['session']
  messages: number
  versions: number
  snapshots: number
  /** Every file the messages attach (hash and the name first attached under). */
  attached: Array<{ hash: string; filename: string }>
  /** Whether the export lists its files (exports made before files were exported do not). */
  listsFiles: boolean
  files: ImportedFile[]
}

const attachmentParts = (data: DistillExport) =>
  placedMessages(data).flatMap(({ message }) =>
    message.parts.filter((p): p is AttachmentPart & { hash: string } => p.type === 'attachment' && !!p.hash)
  )

/**
 * The export's files, each checked against its sha-256 and size before anything is written: a
 * damaged or altered file refuses the whole import with a sentence naming it.
 */
function checkedFiles(data: DistillExport, names: ReadonlyMap<string, string>): ImportedFile[] {
  const seen = new Set<string>()
  return (data.attachments ?? []).flatMap((file, i) => {
    const name = names.get(file.hash) ?? `attachment ${i + 1}`
    if (seen.has(file.hash)) return []
    seen.add(file.hash)
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(file.data) || file.data.length % 4 !== 0) {
      throw new ImportError(`The file “${name}” in the export is not valid base64. Nothing was imported.`)
    }
    const bytes = Buffer.from(file.data, 'base64')
    if (bytes.length !== file.size || createHash('sha256').update(bytes).digest('hex') !== file.hash) {
      throw new ImportError(
        `The file “${name}” in the export does not match its checksum: it was damaged or changed. Nothing was imported.`
      )
    }
    // Its own copy (a small Buffer shares a pool), so it can move to the main thread.
    return [{ hash: file.hash, mediaType: file.mediaType, filename: name, bytes: new Uint8Array(bytes) }]
  })
}

/**
 * Identifies an exported chat by what it says: system prompt, every message's role and parts, and
 * which are set aside (not its title, ids or times), so the same export imported twice is noticed.
 */
function exportHash(data: DistillExport): string {
  const hash = createHash('sha256').update(JSON.stringify(['distill-chat', data.session.systemPrompt]))
  for (const m of placedMessages(data))
    hash.update('\0').update(JSON.stringify([m.message.role, m.hiddenIn !== null, m.message.parts]))
  return hash.digest('hex')
}

/**
 * Reads an export from its bytes: the file itself, or (`wrapped`) the body of a `sessions.import`
 * request, `{ "text": "…" }`. Everything is validated and every file checked here.
 */
export function prepareImport(bytes: Uint8Array, wrapped: boolean): { data: DistillExport; prepared: PreparedImport } {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')
  if (wrapped) {
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new ImportError('The request body is not JSON.')
    }
    const inner = (body as { text?: unknown } | null)?.text
    if (typeof inner !== 'string' || inner === '') throw new ImportError('The file is empty.')
    text = inner
  }
  const data = parseDistillExport(text)
  const attached = new Map<string, string>()
  for (const p of attachmentParts(data)) if (!attached.has(p.hash)) attached.set(p.hash, p.filename)
  const versions = data.versions?.length ?? 0
  return {
    data,
    prepared: {
      contentHash: exportHash(data),
      session: data.session,
      messages: data.messages.length,
      versions,
      snapshots: data.snapshots.length,
      attached: [...attached].map(([hash, filename]) => ({ hash, filename })),
      listsFiles: data.attachments !== undefined,
      files: checkedFiles(data, attached)
    }
  }
}

export interface WriteOptions {
  spec: ModelSpec
  /** Ids for the new chat, its messages and its summaries (UUIDv7s made by the app). */
  ids: string[]
  now: number
  title?: string
  /** Files the export names without carrying them: their parts keep the name only. */
  stripHashes: string[]
  again: boolean
  source: string
  contentHash: string
  /** The share of the usable budget pins may take (Settings), and the safety margin the budget keeps. */
  pins?: { limitPercent: number; safetyMarginPercent: number }
}

const withoutHashes = (parts: MessagePart[], strip: ReadonlySet<string>): MessagePart[] =>
  strip.size
    ? parts.map((p) =>
        p.type === 'attachment' && p.hash && strip.has(p.hash) ? (({ hash: _h, ...rest }) => rest)(p) : p
      )
    : parts

/** The tiered strategy's topic and bulk ids, made from a message id (`topic-<id>`, `bulk-<id>`). */
const TIER_ID = /^(topic|bulk)-(.+)$/

/**
 * Writes a prepared export as a new chat in one transaction: each message counted for the chat's
 * model, every id its rows hold (version links, each summary's messages and the summaries it
 * restores, cascaded from or belongs to) pointing at the new chat's own rows, never at the chat
 * it was exported from. A link to a summary the export does not hold becomes null (the chat was
 * exported with a broken link; it must not reach into another chat). The chat is checked before
 * anything is written (`chatProblems`): one that does not hold together is refused with an
 * ImportError, nothing written. Resolves the earlier import instead when the same chat was
 * imported before (and `again` is not set).
 */
export function writeImport(
  db: Db,
  data: DistillExport,
  options: WriteOptions
): { sessionId: string } | { earlier: ImportRecord } {
  const ids = options.ids[Symbol.iterator]()
  const nextId = () => ids.next().value as string
  const placed = placedMessages(data)
  const strip = new Set(options.stripHashes)
  const newId = new Map(placed.map((m) => [m.message.id, nextId()]))
  // The parser checked every message reference: one that names nothing is a bug, never written as is.
  const mapMessage = (id: string) => {
    const mapped = newId.get(id)
    if (mapped === undefined)
      throw new ImportError(
        `“${options.source}” refers to message ${id}, which the export does not contain. Nothing was imported.`
      )
    return mapped
  }
  const snapshotIds = new Map(data.snapshots.map((snap) => [snap.id, nextId()]))
  /** A link to another summary: the copy's own, or null when the export does not hold it (absent stays absent). */
  const link = (id: string | null | undefined): string | null | undefined =>
    id === undefined || id === null ? id : (snapshotIds.get(id) ?? null)
  const tierId = (id: string) => {
    const [, kind, messageId] = TIER_ID.exec(id) ?? []
    const mapped = messageId === undefined ? undefined : newId.get(messageId)
    return mapped === undefined ? id : `${kind}-${mapped}`
  }
  const tiered = (t: NonNullable<SummaryContent['tiered']>): SummaryContent['tiered'] => {
    const { summarySnapshotId, ...rest } = t
    const summary = link(summarySnapshotId)
    return {
      ...rest,
      topics: t.topics.map((topic) => ({ ...topic, id: tierId(topic.id) })),
      bulks: t.bulks.map((bulk) => ({ ...bulk, id: tierId(bulk.id), topicIds: bulk.topicIds.map(tierId) })),
      ...(summary ? { summarySnapshotId: summary } : {})
    }
  }
  const s = data.session
  const chat: ChatToRestore = {
    session: {
      id: nextId(),
      title: options.title ?? s.title,
      provider: s.provider,
      modelId: s.modelId,
      strategy: s.strategy,
      autoCompress: s.autoCompress,
      systemPrompt: s.systemPrompt,
      createdAt: s.createdAt,
      updatedAt: options.now
    },
    messages: placed.map(({ message: m, seq, versionGroup, hiddenIn }) => {
      const parts = withoutHashes(m.parts, strip)
      const count = countMessage({ role: m.role, parts }, options.spec)
      return {
        id: mapMessage(m.id),
        seq,
        role: m.role,
        parts,
        // Nothing can still be streaming in a file.
        status: m.status === 'streaming' ? 'aborted' : m.status,
        error: m.error ?? null,
        inputTokens: m.usage?.inputTokens ?? null,
        outputTokens: m.usage?.outputTokens ?? null,
        createdAt: m.createdAt,
        tokenCount: count.tokens,
        tokenCounter: count.counter,
        versionGroup: versionGroup && mapMessage(versionGroup),
        hiddenIn: hiddenIn && mapMessage(hiddenIn),
        pinnedAt: m.pinnedAt ?? null
      }
    }),
    snapshots: data.snapshots.map((snap) => {
      const c = snap.content
      const { restoresSnapshotId, baseSnapshotId, previousSnapshotId, tiered: tiers, ...rest } = c
      return {
        id: snapshotIds.get(snap.id)!,
        kind: snap.kind,
        status: snap.status,
        content: {
          ...rest,
          messageRange: {
            firstMessageId: mapMessage(c.messageRange.firstMessageId),
            lastMessageId: mapMessage(c.messageRange.lastMessageId)
          },
          // Each only when the export has it: an absent field means something else than null (see snapshot.ts).
          ...(restoresSnapshotId !== undefined ? { restoresSnapshotId: link(restoresSnapshotId) } : {}),
          ...(baseSnapshotId !== undefined ? { baseSnapshotId: link(baseSnapshotId) } : {}),
          ...(previousSnapshotId !== undefined ? { previousSnapshotId: link(previousSnapshotId) } : {}),
          ...(tiers ? { tiered: tiered(tiers) } : {})
        },
        // A snapshot always covers up to a message; the parser checked it exists.
        messageCutoffId: mapMessage(snap.messageCutoffId ?? c.messageRange.lastMessageId),
        tokenCount: snap.tokenCount,
        createdAt: snap.createdAt
      }
    }),
    import: { contentHash: options.contentHash, source: options.source, importedAt: options.now },
    again: options.again
  }
  overPinned(chat, options)
  const problems = chatProblems(chat)
  if (problems.length)
    throw new ImportError(
      `The chat in “${options.source}” does not hold together: ${problems.slice(0, 3).join(' ')}` +
        `${problems.length > 3 ? ` (and ${problems.length - 3} more problems)` : ''} Nothing was imported.`
    )
  return restoreChat(db, chat)
}

/**
 * Pins past the share of the budget they may take are refused at import as when pinning: a tampered
 * export could otherwise pin everything, and every request would carry it all word for word.
 */
function overPinned(chat: ChatToRestore, options: WriteOptions): void {
  if (!options.pins) return
  const pinned = chat.messages.reduce((n, m) => (m.pinnedAt !== null && !m.hiddenIn ? n + (m.tokenCount ?? 0) : n), 0)
  if (pinned === 0) return
  const { usable } = computeBudget({
    contextWindow: options.spec.contextWindow,
    maxOutput: options.spec.maxOutput,
    safetyMarginPercent: options.pins.safetyMarginPercent,
    thresholdPercent: 95
  })
  const percent = pinSharePercent(pinned, usable)
  if (percent > options.pins.limitPercent) {
    throw new ImportError(
      `The chat in “${options.source}” pins messages that would take ${percent}% of the ${usable.toLocaleString('en-US')} tokens a request of ${options.spec.label} may use; pinned messages may take at most ${options.pins.limitPercent}% (Settings → Compression). Nothing was imported.`
    )
  }
}

/**
 * What would be wrong with a chat about to be written: any id its rows hold that does not name a
 * row of the chat itself, or more than one active summary (or draft). The same rules as
 * `checkChatIntegrity` (db/repositories/chat-integrity.ts) checks in the database, applied to the
 * rows before they are written, so a chat that does not hold together is never written at all.
 */
export function chatProblems(chat: ChatToRestore): string[] {
  const problems: string[] = []
  const messages = new Set(chat.messages.map((m) => m.id))
  const snapshots = new Set(chat.snapshots.map((s) => s.id))
  for (const m of chat.messages) {
    for (const [what, id] of [
      ['version group', m.versionGroup],
      ['version', m.hiddenIn]
    ] as const)
      if (id && !messages.has(id)) problems.push(`Message ${m.id} names as its ${what} message ${id}, not of the chat.`)
  }
  const count = (status: string) => chat.snapshots.filter((s) => s.kind === 'summary' && s.status === status).length
  for (const s of chat.snapshots) {
    const c = s.content
    for (const id of [s.messageCutoffId, c.messageRange.firstMessageId, c.messageRange.lastMessageId])
      if (!messages.has(id)) problems.push(`Summary ${s.id} names message ${id}, not of the chat.`)
    for (const id of [c.restoresSnapshotId, c.baseSnapshotId, c.previousSnapshotId, c.tiered?.summarySnapshotId]) {
      if (id === undefined || id === null) continue
      if (id === s.id) problems.push(`Summary ${s.id} names itself.`)
      else if (!snapshots.has(id)) problems.push(`Summary ${s.id} names summary ${id}, not of the chat.`)
    }
  }
  if (count('active') > 1) problems.push(`The chat has ${count('active')} active summaries; at most one may be active.`)
  if (count('draft') > 1)
    problems.push(`The chat has ${count('draft')} summaries waiting for review; at most one is kept.`)
  return problems
}

/** How many ids writing this export takes: its messages, its summaries and the chat. */
export const idsNeeded = (p: Pick<PreparedImport, 'messages' | 'versions' | 'snapshots'>) =>
  p.messages + p.versions + p.snapshots + 1
