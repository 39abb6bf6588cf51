import { describe, expect, it } from 'vitest'
import { resolveModel } from '../models/catalog'
import { anthropicImageTokens, attachmentTokens, geminiImageTokens, openaiImageTokens } from './attachment-tokens'

describe('attachment tokens, as each provider documents them', () => {
  it("OpenAI's tile formula (GPT-4o, high detail) and gpt-4o-mini's multipliers", () => {
    // The documented examples: 1024² → 768² → 4 tiles; 2048×4096 → 768×1536 → 6 tiles.
    expect(openaiImageTokens(1024, 1024, 'gpt-4o')).toBe(765)
    expect(openaiImageTokens(2048, 4096, 'gpt-4o')).toBe(1105)
    expect(openaiImageTokens(64, 48, 'gpt-4o')).toBe(255)
    expect(openaiImageTokens(64, 48, 'gpt-4o-mini')).toBe(8500)
  })

  it("Anthropic's width × height / 750, after scaling down large images", () => {
    expect(anthropicImageTokens(1000, 1000)).toBe(1334)
    expect(anthropicImageTokens(1092, 1092)).toBe(1590)
    // 4000×3000 is scaled down to about 1,600 tokens first.
    expect(anthropicImageTokens(4000, 3000)).toBeLessThanOrEqual(1600)
    expect(anthropicImageTokens(4000, 3000)).toBeGreaterThan(1590)
  })

  it("Gemini's 258 per image, or per 768×768 tile", () => {
    expect(geminiImageTokens(300, 300)).toBe(258)
    expect(geminiImageTokens(1000, 1000)).toBe(1032)
  })

  it('counts PDFs per page, text files from their token count, and nothing for a name-only part', () => {
    const gemini = resolveModel('google', 'gemini-2.5-flash')!
    const gpt35 = resolveModel('openai', 'gpt-3.5-turbo')!
    const parts = [
      {
        type: 'attachment' as const,
        filename: 'a.pdf',
        mediaType: 'application/pdf',
        size: 900,
        hash: 'a'.repeat(64),
        pages: 3
      },
      {
        type: 'attachment' as const,
        filename: 'b.ts',
        mediaType: 'text/plain',
        size: 400,
        hash: 'b'.repeat(64),
        tokens: 100
      },
      { type: 'attachment' as const, filename: 'old.png', mediaType: 'image/png', size: 400 }
    ]
    expect(attachmentTokens(parts, gemini)).toBe(3 * 258 + 100 + 12)
    expect(attachmentTokens(parts, gpt35)).toBe(3 * 1000 + 100 + 12)
  })
})
