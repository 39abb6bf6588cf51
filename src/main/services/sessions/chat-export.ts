import type { ChatMessage, MessagePart } from '../../../shared/domain/chat-message'
import { messageText } from '../../../shared/domain/chat-message'
import type { Session } from '../../../shared/domain/session'
import type { Snapshot } from '../../../shared/domain/snapshot'
import type { SummarySources } from '../../../shared/contract/compression'
import type { VersionedMessage } from '../../db/repositories/messages/message-versions-repo'
import {
  DISTILL_EXPORT_FORMAT,
  DISTILL_EXPORT_VERSION,
  type DistillExport,
  type ExportedMessage
} from '../../imports/distill-export'

export type ExportFormat = 'md' | 'json'

const asString = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null))

/** A stored message in OpenAI chat format, keeping Distill's exact parts beside it, with its place among versions. */
function toExportedMessage(m: VersionedMessage): ExportedMessage {
  const calls = m.parts.filter((p): p is Extract<MessagePart, { type: 'tool-call' }> => p.type === 'tool-call')
  const results = m.parts.filter((p): p is Extract<MessagePart, { type: 'tool-result' }> => p.type === 'tool-result')
  const text = messageText(m.parts)
  const out: ExportedMessage = {
    role: m.role,
    content:
      m.role === 'tool' ? results.map((r) => asString(r.output)).join('\n') : text === '' && calls.length ? null : text,
    ...(calls.length
      ? {
          tool_calls: calls.map((c) => ({
            id: c.toolCallId,
            type: 'function' as const,
            function: { name: c.toolName, arguments: asString(c.input) }
          }))
        }
      : {}),
    ...(m.role === 'tool' && results[0] ? { tool_call_id: results[0].toolCallId } : {}),
    id: m.id,
    seq: m.seq,
    ...(m.versionGroup ? { versionGroup: m.versionGroup } : {}),
    ...(m.pinnedAt !== undefined ? { pinnedAt: m.pinnedAt } : {}),
    createdAt: m.createdAt,
    status: m.status,
    parts: m.parts
  }
  if (m.error) out.error = m.error
  if (m.inputTokens !== null || m.outputTokens !== null)
    out.usage = { inputTokens: m.inputTokens, outputTokens: m.outputTokens }
  return out
}

/** Where each line of a summary came from (issue 37); undefined: not known. */
export type ExportLineSources = (snapshot: Snapshot) => SummarySources | undefined

/** A line of a summary with the messages it came from, as the JSON export writes it. */
export interface ExportedSummaryLine {
  /** 0-based line of the summary's text. */
  line: number
  text: string
  sources: Array<{ messageId: string; seq: number }>
}

/**
 * The lines of the active summary with their sources, for the export: only the summary in use, the
 * one a reader of the file meets (older ones are attributed when someone looks at them in the app).
 */
function linesWithSources(
  snapshot: Snapshot,
  sourcesOf: ExportLineSources | undefined
): ExportedSummaryLine[] | undefined {
  if (!sourcesOf || snapshot.kind !== 'summary' || snapshot.status !== 'active') return undefined
  const found = sourcesOf(snapshot)
  if (!found) return undefined
  const text = snapshot.content.summaryText.split('\n')
  return found.lines.map((l) => ({
    line: l.line,
    text: text[l.line] ?? '',
    sources: l.sources.map(({ messageId, seq }) => ({ messageId, seq }))
  }))
}

/** Reads a stored file for the export; undefined when it is no longer stored. */
export type ExportFileSource = (hash: string) => { mediaType: string; bytes: Uint8Array } | undefined

/**
 * The stored files the messages attach, once each, in the order first attached. A file no longer
 * stored loses its hash in the parts (the name stays, as metadata), so the export never names a
 * file it does not carry.
 */
function withFiles(messages: readonly VersionedMessage[], read: ExportFileSource | undefined) {
  if (!read) return { messages, attachments: [] }
  const hashes = new Set(
    messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'attachment' && p.hash ? [p.hash] : [])))
  )
  const attachments: NonNullable<DistillExport['attachments']> = []
  for (const hash of hashes) {
    const file = read(hash)
    if (file)
      attachments.push({
        hash,
        mediaType: file.mediaType,
        size: file.bytes.length,
        data: Buffer.from(file.bytes).toString('base64')
      })
    else hashes.delete(hash)
  }
  const kept = messages.map((m) => ({
    ...m,
    parts: m.parts.map((p) =>
      p.type === 'attachment' && p.hash && !hashes.has(p.hash) ? (({ hash: _h, ...rest }) => rest)(p) : p
    )
  }))
  return { messages: kept, attachments }
}

/**
 * The versioned JSON envelope `distill import` reads back into an equal chat: `messages` is the
 * conversation as it stands, `versions` the messages of the versions not in use (each with the
 * version it belongs to). With `files`, the stored attachments go with it (base64, checked by
 * their sha-256 on import).
 */
export function chatToJson(
  session: Session,
  stored: readonly VersionedMessage[],
  snapshots: readonly Snapshot[],
  exportedAt: number,
  files?: ExportFileSource,
  /** The name of the chat's project, if it is in one. */
  project?: string,
  /** Where the active summary's lines came from: each of its lines then lists its `sources`. */
  sourcesOf?: ExportLineSources
): DistillExport & { snapshots: Array<DistillExport['snapshots'][number] & { lines?: ExportedSummaryLine[] }> } {
  const { messages, attachments } = withFiles(stored, files)
  const versions = messages
    .filter((m) => m.hiddenIn !== null)
    .map((m) => ({ ...toExportedMessage(m), seq: m.seq, hiddenIn: m.hiddenIn! }))
  return {
    format: DISTILL_EXPORT_FORMAT,
    version: versions.length ? DISTILL_EXPORT_VERSION : 1,
    exportedAt: new Date(exportedAt).toISOString(),
    session: {
      id: session.id,
      title: session.title,
      systemPrompt: session.systemPrompt,
      provider: session.provider,
      modelId: session.modelId,
      strategy: session.strategy,
      autoCompress: session.autoCompress,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
      ...(project ? { project } : {})
    },
    messages: messages.filter((m) => m.hiddenIn === null).map(toExportedMessage),
    ...(versions.length ? { versions } : {}),
    // Oldest first, so a reader sees the cascade in the order it was written.
    snapshots: [...snapshots]
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
      .map((snapshot) => {
        const { sessionId: _s, cutoffSeq: _c, ...rest } = snapshot
        const lines = linesWithSources(snapshot, sourcesOf)
        // Import reads the snapshot and leaves `lines` aside: they are found again from the messages.
        return lines ? { ...rest, lines } : rest
      }),
    // Always listed when files are exported, so a file missing from the list was lost on the way.
    ...(files ? { attachments } : {})
  }
}

const ROLE_HEADING: Record<ChatMessage['role'], string> = {
  user: 'You',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool'
}

const isoMinute = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC'

/** A fence longer than any backtick run inside, so code in the text cannot close it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${lang}\n${text}\n${fence}`
}

function partMarkdown(part: MessagePart): string {
  switch (part.type) {
    case 'text':
      return part.text
    case 'tool-call':
      return `**Tool call** \`${part.toolName}\`\n\n${fenced(asString(part.input), 'json')}`
    case 'tool-result':
      return `**Tool result** \`${part.toolName}\`\n\n${fenced(asString(part.output))}`
    case 'attachment':
      return `*Attachment: ${part.filename} (${part.mediaType}, ${part.size} bytes)${part.description ? ` — ${part.description}` : ''}*`
  }
}

const STATUS_NOTE: Partial<Record<ChatMessage['status'], string>> = {
  aborted: 'stopped before it finished',
  error: 'failed',
  streaming: 'still streaming when exported'
}

/** A readable Markdown transcript: title, system prompt, active summary, then every message. */
export function chatToMarkdown(
  session: Session,
  messages: readonly ChatMessage[],
  snapshots: readonly Snapshot[],
  /** Where the summary's lines came from: each line then ends "(from message #12)". */
  sourcesOf?: ExportLineSources
): string {
  const out = [`# ${session.title}`, '']
  const model = session.modelId ? `${session.provider ?? ''}${session.provider ? ' / ' : ''}${session.modelId}` : null
  out.push(
    `*Exported from Distill. ${messages.length} messages${model ? `, model ${model}` : ''}, started ${isoMinute(session.createdAt)}. The current version of each message only: the JSON export keeps every version and summary, and is the one that imports.*`,
    ''
  )
  if (session.systemPrompt) out.push('## System prompt', '', session.systemPrompt, '')
  const summary = snapshots.find((s) => s.kind === 'summary' && s.status === 'active')
  if (summary) {
    out.push(`## Summary of the first ${summary.content.messagesIncluded} messages`, '')
    const from = new Map(
      (linesWithSources(summary, sourcesOf) ?? []).map((l) => [l.line, l.sources.map((s) => `#${s.seq}`)])
    )
    const cited = (line: string, i: number) => {
      const seqs = from.get(i)
      return seqs?.length ? `${line} (from ${seqs.length === 1 ? 'message' : 'messages'} ${seqs.join(', ')})` : line
    }
    out.push(...summary.content.summaryText.split('\n').map((line, i) => (line ? `> ${cited(line, i)}` : '>')), '')
  }
  out.push('## Conversation', '')
  for (const m of messages) {
    const note = STATUS_NOTE[m.status]
    // "#12": the message's number, as the summary's lines and Full history name it.
    out.push(`### ${ROLE_HEADING[m.role]} · #${m.seq} · ${isoMinute(m.createdAt)}${note ? ` (${note})` : ''}`, '')
    const body = m.parts
      .map(partMarkdown)
      .filter((t) => t.trim() !== '')
      .join('\n\n')
    out.push(body || '*(empty)*', '')
    if (m.error) out.push(`> Error: ${m.error.message}`, '')
  }
  return `${out.join('\n').trimEnd()}\n`
}

/** A file name from the title: letters, digits and dashes only, never empty. */
export function exportFileName(title: string, format: ExportFormat): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return `${base || 'chat'}.${format === 'md' ? 'md' : 'distill.json'}`
}
