import type { ModelMessage } from 'ai'
import { AppError } from '../../shared/app-error'
import {
  attachmentKind,
  cleanFilename,
  manifestText,
  MAX_ATTACHMENTS_PER_MESSAGE,
  TOO_MANY_ATTACHMENTS
} from '../../shared/domain/attachments'
import type { AttachmentPart } from '../../shared/domain/chat-message'
import { PROVIDER_LABELS, type ProviderId } from '../../shared/domain/provider'
import { SUMMARY_PREFIX } from '../engine/build-context'
import { CATALOG } from '../models/catalog'
import { countTextTokens } from '../tokens/encoders'
import type { AttachmentStore } from './attachment-store'
import { describeImage } from './describe-attachment'
import { resolveAttachments } from './resolve-attachments'

export interface ModelAbilities {
  label: string
  vision: boolean
}

/** What the chat service needs from attachments: the parts of a message being sent, and a request's files. */
export interface ChatAttachments {
  /** The stored parts for the files being sent; refuses a file that is gone or that the model cannot take. */
  partsFor(
    sent: readonly { hash: string; filename: string }[],
    provider: ProviderId,
    modelId: string,
    messageText?: string
  ): AttachmentPart[]
  /**
   * Reads the files a request carries, in the provider's format, and lists after the summary the
   * files of the messages it stands for (those up to `cutoffSeq`).
   */
  /** Whether the model takes images, and if not the sentence refusing one (for the composer's check before upload). */
  accepts(provider: ProviderId, modelId: string): { vision: boolean; imageRefusal: string | null }
  resolve(
    messages: ModelMessage[],
    target: { provider: ProviderId; modelId: string; sessionId: string; cutoffSeq: number }
  ): Promise<ModelMessage[]>
}

type Candidate = { provider: ProviderId; label: string; vision?: boolean }

/**
 * "GPT-3.5 Turbo cannot see images. Models that can: GPT-4o, …": the chat's provider first, then one
 * per other provider, among the models the user can pick (their own marked "Images: Yes" included).
 */
export function visionRefusal(
  model: ModelAbilities,
  provider: ProviderId,
  configured: (p: ProviderId) => boolean = () => true,
  candidates: readonly Candidate[] = CATALOG
): string {
  const able = candidates.filter((m) => m.vision && configured(m.provider))
  const sameProvider = able.filter((m) => m.provider === provider)
  const others = able.filter((m) => m.provider !== provider)
  const names = [
    ...sameProvider.slice(0, 3),
    ...others.filter((m, i, all) => all.findIndex((o) => o.provider === m.provider) === i)
  ]
    .slice(0, 5)
    .map((m) => (m.provider === provider ? m.label : `${m.label} (${PROVIDER_LABELS[m.provider]})`))
  if (names.length === 0) {
    return `${model.label} cannot see images. Choose a model that can (mark your own with “Images: Yes” in Settings → Models), or remove the image.`
  }
  return `${model.label} cannot see images. Choose a model that can, such as ${names.join(', ')}, or remove the image.`
}

export function createChatAttachments(deps: {
  store: AttachmentStore
  abilities: (provider: ProviderId, modelId: string) => ModelAbilities
  /** Providers set up with a key or an address: the refusal suggests models the user can pick. */
  configured?: (provider: ProviderId) => boolean
  /** Every model the user could switch to (catalog, their own, a local server's); the catalog when not given. */
  models?: () => readonly Candidate[]
}): ChatAttachments {
  const refusal = (model: ModelAbilities, provider: ProviderId) =>
    visionRefusal(model, provider, deps.configured, deps.models?.())
  return {
    partsFor(sent, provider, modelId, messageText = '') {
      if (sent.length > MAX_ATTACHMENTS_PER_MESSAGE) throw new AppError('invalid_input', TOO_MANY_ATTACHMENTS)
      const parts = sent.map((sentFile): AttachmentPart => {
        // Cleaned on every route, as on upload: a name is never a path, and never hides its extension.
        const s = { hash: sentFile.hash, filename: cleanFilename(sentFile.filename) }
        const row = deps.store.describe(s.hash)
        if (!row) throw new AppError('not_found', `“${s.filename}” is no longer stored. Attach it again.`)
        const part: AttachmentPart = {
          type: 'attachment',
          filename: s.filename,
          mediaType: row.mediaType,
          size: row.size,
          hash: row.hash
        }
        if (row.pages !== null) part.pages = row.pages
        if (row.width !== null && row.height !== null) Object.assign(part, { width: row.width, height: row.height })
        // Counted once here, so the meter knows what the file costs without reading it again.
        const kind = attachmentKind(row.mediaType, s.filename)
        if (kind === 'text') part.tokens = countTextTokens(deps.store.read(row.hash).toString('utf8'), 'o200k_base')
        // Kept with the part, so the manifest says what the file was wherever the message goes (export, import).
        const description =
          kind === 'image'
            ? describeImage({ width: row.width ?? undefined, height: row.height ?? undefined }, messageText)
            : row.description
        if (description) part.description = description
        return part
      })
      const model = deps.abilities(provider, modelId)
      if (!model.vision && parts.some((p) => attachmentKind(p.mediaType, p.filename) === 'image')) {
        throw new AppError('invalid_input', refusal(model, provider))
      }
      return parts
    },

    accepts(provider, modelId) {
      const model = deps.abilities(provider, modelId)
      return { vision: model.vision, imageRefusal: model.vision ? null : refusal(model, provider) }
    },

    resolve(messages, { provider, modelId, sessionId, cutoffSeq }) {
      const manifest = manifestText(deps.store.summarized(sessionId, cutoffSeq))
      const withManifest = manifest
        ? messages.map((m) =>
            m.role === 'system' && typeof m.content === 'string' && m.content.startsWith(SUMMARY_PREFIX)
              ? { ...m, content: `${m.content}\n\n${manifest}` }
              : m
          )
        : messages
      return resolveAttachments(withManifest, provider, deps.store, {
        vision: deps.abilities(provider, modelId).vision
      })
    }
  }
}
