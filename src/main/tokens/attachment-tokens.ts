import { attachmentKind } from '../../shared/domain/attachments'
import type { AttachmentPart, MessagePart } from '../../shared/domain/chat-message'
import type { ModelSpec } from '../models/catalog'
import { ESTIMATE_FACTORS, estimateFamilyOf } from './estimate'

/**
 * What a stored attachment costs in a request, the way each provider documents it. Images need
 * their pixel size (stored at upload); without it a 1024×1024 image is assumed.
 */

/**
 * OpenAI (GPT-4o family, "high" detail, the default for a base64 image): scale to fit 2048×2048,
 * then the shortest side to 768; cost = base + per tile of 512×512. gpt-4o-mini charges the same
 * price with larger counts (2,833 + 5,667 per tile).
 */
export function openaiImageTokens(width: number, height: number, modelId = ''): number {
  let w = width
  let h = height
  const fit = Math.min(1, 2048 / Math.max(w, h))
  w *= fit
  h *= fit
  const shortest = Math.min(w, h)
  if (shortest > 768) {
    w *= 768 / shortest
    h *= 768 / shortest
  }
  const tiles = Math.ceil(w / 512) * Math.ceil(h / 512)
  return modelId.startsWith('gpt-4o-mini') ? 2833 + 5667 * tiles : 85 + 170 * tiles
}

/** Anthropic: an image over 1568 px on its long edge, or over ~1,600 tokens, is scaled down first; tokens = w × h / 750. */
export function anthropicImageTokens(width: number, height: number): number {
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt((1600 * 750) / (width * height)))
  // Resized to whole pixels.
  return Math.ceil((Math.floor(width * scale) * Math.floor(height * scale)) / 750)
}

/** Gemini 2.x: 258 tokens when both sides are ≤ 384 px, else 258 per 768×768 tile. */
export function geminiImageTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return 258
  return 258 * Math.ceil(width / 768) * Math.ceil(height / 768)
}

/** Gemini counts a PDF page as one image (258); Anthropic and OpenAI send each page's text and an image of it. */
const PDF_PAGE_TOKENS: Record<string, number> = { google: 258, anthropic: 1500, openai: 1000 }
/** A PDF sent as its extracted text (OpenAI-compatible servers): about one page of prose. */
const PDF_TEXT_PAGE_TOKENS = 500

export function imageTokens(
  part: Pick<AttachmentPart, 'width' | 'height'>,
  spec: Pick<ModelSpec, 'provider' | 'id'>
): number {
  const w = part.width ?? 1024
  const h = part.height ?? 1024
  if (spec.provider === 'anthropic') return anthropicImageTokens(w, h)
  if (spec.provider === 'google') return geminiImageTokens(w, h)
  return openaiImageTokens(w, h, spec.id)
}

/** One stored attachment's tokens for this model (0 for metadata-only parts: they are counted as their line). */
export function attachmentPartTokens(
  part: AttachmentPart,
  spec: Pick<ModelSpec, 'provider' | 'id' | 'tokenizer' | 'vision'>
): number {
  if (!part.hash) return 0
  const kind = attachmentKind(part.mediaType, part.filename)
  if (kind === 'image') return spec.vision ? imageTokens(part, spec) : 20
  if (kind === 'pdf') {
    const pages = part.pages ?? Math.max(1, Math.round(part.size / 50_000))
    return pages * (PDF_PAGE_TOKENS[spec.provider] ?? PDF_TEXT_PAGE_TOKENS)
  }
  // Text and code: the o200k count made at upload, scaled like every other local estimate.
  const tokens = part.tokens ?? Math.ceil(part.size / 4)
  const exact = spec.tokenizer === 'o200k_base' || spec.tokenizer === 'cl100k_base'
  return Math.ceil(tokens * (exact ? 1 : ESTIMATE_FACTORS[estimateFamilyOf(spec.tokenizer)].factor)) + 12
}

/** The tokens of a message's stored attachments. */
export function attachmentTokens(
  parts: readonly MessagePart[],
  spec: Pick<ModelSpec, 'provider' | 'id' | 'tokenizer' | 'vision'>
): number {
  let sum = 0
  for (const p of parts) if (p.type === 'attachment') sum += attachmentPartTokens(p, spec)
  return sum
}
