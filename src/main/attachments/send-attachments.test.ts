import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../e2e/fake-provider'
import type { AttachmentPart } from '../../shared/domain/chat-message'
import type { ProviderId } from '../../shared/domain/provider'
import type { App } from '../app'
import { countTextTokens } from '../tokens/encoders'
import { samplePdf, samplePng } from '../../../test/support/sample-files'
import { useFakeProvider, useTestApps } from '../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const png = samplePng(64, 48)
const pdf = samplePdf(['Quarterly revenue rose', 'Costs fell by a third'])
const notes = Buffer.from('TODO: ship attachments\n')

describe('a message with attachments, through the router, to each provider', () => {
  const openApp = useTestApps()

  function open(): App {
    return openApp({
      env: {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseURLs.openai,
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: fake.baseURLs.anthropic,
        GOOGLE_GENERATIVE_AI_API_KEY: 'g-test',
        GOOGLE_GENERATIVE_AI_BASE_URL: fake.baseURLs.google,
        OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible,
        OPENAI_COMPATIBLE_API_KEY: 'local'
      }
    })
  }

  async function upload(app: App, filename: string, mediaType: string, data: Buffer): Promise<AttachmentPart> {
    const res = await app.router.call('attachments.upload', { filename, mediaType, data: data.toString('base64') })
    if (!res.ok) throw new Error(res.error.message)
    return res.data as AttachmentPart
  }

  async function sendAll(app: App, provider: ProviderId, modelId: string) {
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider, modelId })
    const files = [
      await upload(app, 'chart.png', 'image/png', png),
      await upload(app, 'report.pdf', 'application/pdf', pdf),
      await upload(app, 'notes.txt', 'text/plain', notes)
    ]
    const res = await app.router.call('chat.send', {
      sessionId: session.id,
      text: 'What do these say?',
      attachments: files.map((f) => ({ hash: f.hash!, filename: f.filename }))
    })
    if (!res.ok) throw new Error(res.error.message)
    await app.services.chat.idle()
    const request = fake.requests.filter((r) => r.attachments !== undefined).at(-1)!
    return { session, request, messages: app.services.chat.messages(session.id) }
  }

  it.each([
    ['openai', 'gpt-4o-mini', 'image_url', 'file'],
    ['anthropic', 'claude-haiku-4-5', 'image', 'document'],
    ['google', 'gemini-2.5-flash', 'inline_data', 'inline_data']
  ] as const)(
    '%s receives the image and the PDF in its own wire format, the text file as text',
    async (provider, modelId, imageWire, pdfWire) => {
      const app = open()
      const { request, messages } = await sendAll(app, provider, modelId)
      expect(messages.map((m) => m.status)).toEqual(['complete', 'complete'])
      expect(
        messages[0]!.parts.map((p) => (p.type === 'attachment' ? `${p.filename} ${p.mediaType} ${p.size}` : p.type))
      ).toEqual([
        'text',
        `chart.png image/png ${png.length}`,
        `report.pdf application/pdf ${pdf.length}`,
        `notes.txt text/plain ${notes.length}`
      ])
      expect(request.attachments!.map((a) => [a.role, a.wire, a.mediaType, a.bytes, a.sha256])).toEqual([
        ['user', imageWire, 'image/png', png.length, sha(png)],
        ['user', pdfWire, 'application/pdf', pdf.length, sha(pdf)]
      ])
      const userText = JSON.stringify(request.body)
      expect(userText).toContain('<attachment name=\\"notes.txt\\" type=\\"text/plain\\">\\nTODO: ship attachments\\n')
    }
  )

  it('sends a PDF to a provider without PDF input as its extracted text, page by page', async () => {
    const app = open()
    const { request } = await sendAll(app, 'openai-compatible', 'llava:13b')
    expect(request.attachments!.map((a) => [a.wire, a.mediaType])).toEqual([['image_url', 'image/png']])
    const body = JSON.stringify(request.body)
    expect(body).toContain('--- page 1 ---\\nQuarterly revenue rose\\n--- page 2 ---\\nCosts fell by a third')
  })

  it('refuses an image for a model without vision before writing anything, naming models that can see', async () => {
    const app = open()
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-3.5-turbo' })
    const image = await upload(app, 'chart.png', 'image/png', png)
    const res = await app.router.call('chat.send', {
      sessionId: session.id,
      text: 'Look',
      attachments: [{ hash: image.hash!, filename: 'chart.png' }]
    })
    expect(res).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(
          /^GPT-3\.5 Turbo cannot see images\. Choose a model that can, such as GPT-5, .*Claude .*\(Anthropic\).* or remove the image\.$/
        )
      }
    })
    expect(app.services.chat.messages(session.id)).toEqual([])
    // A text file is fine for the same model.
    const text = await upload(app, 'notes.txt', 'text/plain', notes)
    const ok = await app.router.call('chat.send', {
      sessionId: session.id,
      text: '',
      attachments: [{ hash: text.hash!, filename: 'notes.txt' }]
    })
    expect(ok.ok).toBe(true)
    await app.services.chat.idle()
    expect(app.services.sessions.get(session.id).title).toBe('notes.txt')
  })

  it('refuses a file that is no longer stored, and too many files, with sentences', async () => {
    const app = open()
    const session = app.services.sessions.create()
    const gone = await app.router.call('chat.send', {
      sessionId: session.id,
      text: 'x',
      attachments: [{ hash: 'a'.repeat(64), filename: 'old.png' }]
    })
    expect(gone).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: '“old.png” is no longer stored. Attach it again.' }
    })
    const many = Array.from({ length: 11 }, () => ({ hash: 'a'.repeat(64), filename: 'x.txt' }))
    const tooMany = await app.router.call('chat.send', { sessionId: session.id, text: 'x', attachments: many })
    expect(tooMany).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('A message can carry up to 10 attachments.') }
    })
    const empty = await app.router.call('chat.send', { sessionId: session.id, text: '  ' })
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('deleting the chat removes its files from the data directory', async () => {
    const app = open()
    const { session, messages } = await sendAll(app, 'openai', 'gpt-4o-mini')
    const hashes = messages[0]!.parts.flatMap((p) => (p.type === 'attachment' ? [p.hash!] : []))
    for (const h of hashes) expect(app.services.attachments.read(h).length).toBeGreaterThan(0)
    await app.router.call('sessions.delete', { id: session.id })
    for (const h of hashes) expect(() => app.services.attachments.read(h)).toThrow('no longer stored')
  })

  it('after a summary, the files leave the request and the summary lists them for the model', async () => {
    const app = open()
    const { session } = await sendAll(app, 'anthropic', 'claude-haiku-4-5')
    await app.services.chat.idle()
    await app.services.compression.run(session.id, { retentionOverride: 0, summarizer: 'extractive' })
    fake.reset()
    const res = await app.router.call('chat.send', { sessionId: session.id, text: 'And now?' })
    expect(res.ok).toBe(true)
    await app.services.chat.idle()
    const request = fake.requests.find((r) => r.attachments !== undefined)!
    expect(request.attachments).toEqual([])
    const system = JSON.stringify((request.body as { system?: unknown }).system)
    expect(system).toContain(
      'Attachments in the summarized messages (no longer in your context; the user can attach them again):'
    )
    // Each with one line of what it was, made without a model: size and words for an image, a first line for the others.
    expect(system).toMatch(
      /- chart\.png \(PNG, \d+ B\), attached by the user in message 1 on \d{4}-\d{2}-\d{2}: 64×48 image, sent with “What do these say\?”/
    )
    expect(system).toMatch(
      /- report\.pdf \(PDF, 2 pages, [^)]+\), attached by the user in message 1 on [\d-]+: Quarterly revenue rose/
    )
    expect(system).toMatch(
      /- notes\.txt \(TXT, [^)]+\), attached by the user in message 1 on [\d-]+: TODO: ship attachments/
    )
  })

  it('the meter shows the files of the messages in context as their own row, counted as the provider does', async () => {
    const app = open()
    const { session } = await sendAll(app, 'openai', 'gpt-4o')
    const usage = app.services.next.meter(session.id)
    // 64×48 image: one tile (85 + 170); a 2-page PDF at ~1,000 a page; the text file by o200k plus its tags.
    const textTokens = countTextTokens(notes.toString('utf8'), 'o200k_base') + 12
    expect(usage.breakdown.attachments).toBe(255 + 2000 + textTokens)
    expect(usage.breakdown.history).toBeGreaterThan(0)
    expect(usage.breakdown.history).toBeLessThan(200)
    await app.services.compression.run(session.id, { retentionOverride: 0, summarizer: 'extractive' })
    expect(app.services.next.meter(session.id).breakdown.attachments).toBe(0)
  })

  it('names the user’s own models marked “Images: Yes” when only a local server is set up', async () => {
    const app = openApp({ env: { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:1/v1' } })
    app.services.settings.update({
      customModels: [
        {
          provider: 'openai-compatible',
          id: 'qwen-vl-house',
          label: 'Qwen VL (house)',
          contextWindow: 8192,
          maxOutput: 1024,
          vision: true
        },
        { provider: 'openai-compatible', id: 'text-only', contextWindow: 8192, maxOutput: 1024, vision: false }
      ]
    })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai-compatible', modelId: 'text-only' })
    const res = await app.router.call('attachments.accepts', { sessionId: session.id })
    expect(res).toMatchObject({
      ok: true,
      data: {
        vision: false,
        imageRefusal:
          'text-only cannot see images. Choose a model that can, such as Qwen VL (house), or remove the image.'
      }
    })
  })

  it('tells the composer whether the chat’s model takes images; a user’s own model says so in Settings', async () => {
    const app = open()
    app.services.settings.update({
      customModels: [
        { provider: 'openai-compatible', id: 'house-model', contextWindow: 8192, maxOutput: 1024, vision: true },
        { provider: 'openai-compatible', id: 'llava:13b', contextWindow: 8192, maxOutput: 1024, vision: false }
      ]
    })
    const session = app.services.sessions.create()
    const accepts = async (provider: ProviderId, modelId: string) => {
      app.services.sessions.update(session.id, { provider, modelId })
      const res = await app.router.call('attachments.accepts', { sessionId: session.id })
      if (!res.ok) throw new Error(res.error.message)
      return res.data as { vision: boolean; imageRefusal: string | null }
    }
    expect(await accepts('openai-compatible', 'house-model')).toEqual({ vision: true, imageRefusal: null })
    const refused = await accepts('openai-compatible', 'llava:13b')
    expect(refused.vision).toBe(false)
    expect(refused.imageRefusal).toMatch(/^llava:13b cannot see images\. Choose a model that can, such as .*GPT/)
    expect((await accepts('openai', 'gpt-3.5-turbo')).imageRefusal).toMatch(/^GPT-3\.5 Turbo cannot see images/)
    // The send path agrees: the same image is refused for the model marked text-only, before anything is written.
    const image = await upload(app, 'chart.png', 'image/png', png)
    app.services.sessions.update(session.id, { provider: 'openai-compatible', modelId: 'llava:13b' })
    const res = await app.router.call('chat.send', {
      sessionId: session.id,
      text: 'See?',
      attachments: [{ hash: image.hash!, filename: 'chart.png' }]
    })
    expect(res).toMatchObject({ ok: false, error: { message: refused.imageRefusal } })
  })
})
