import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { AttachmentPart } from '../../../shared/domain/chat-message'
import { useFakeProvider, useTestApps } from '../../../../test/support/test-apps'
import { mergeRecallRows } from './attachment-recall'
import { withDraft } from '../conversation/draft-conversation'
import { buildModelRequest } from '../conversation/request-builder'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

const RUNBOOK = [
  '# Staging runbook',
  '',
  ...Array.from(
    { length: 30 },
    (_, i) => `Step ${i + 1}: restart worker pool ${i} and check its queue depth on the dashboard.\n`
  ),
  'If the ledger service hangs, the override passphrase is quokka-umbrella and the on-call pager is 5551.',
  ''
].join('\n')

const row = (messageId: string, seq: number, text: string, score: number) => ({
  messageId,
  seq,
  role: 'user' as const,
  createdAt: 0,
  text,
  score
})

describe('recall of a summarized message’s text attachment', () => {
  const openApp = useTestApps()

  it('brings back the matching passage of the file, labelled with its name, not the whole file', async () => {
    const app = openApp({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    app.services.settings.update({
      customModels: [{ provider: 'openai', id: 'tiny-4k', contextWindow: 4096, maxOutput: 512 }]
    })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'tiny-4k' })
    const res = await app.router.call('attachments.upload', {
      filename: 'runbook.md',
      mediaType: 'text/markdown',
      data: Buffer.from(RUNBOOK).toString('base64')
    })
    if (!res.ok) throw new Error(res.error.message)
    const file = res.data as AttachmentPart
    await app.services.chat.append(session.id, {
      role: 'user',
      parts: [{ type: 'text', text: 'Here is the runbook for staging.' }, file]
    })
    for (let i = 0; i < 40; i++) {
      const text = `Project Heron-${i} ships on 2024-0${(i % 9) + 1}-1${i % 10} with a budget of $${1000 + i * 37},000. Decision: Heron-${i} passes audit #${4400 + i}.`
      await app.services.chat.append(session.id, {
        role: i % 2 ? 'user' : 'assistant',
        parts: [{ type: 'text', text }]
      })
    }
    await app.services.compression.run(session.id, { summarizer: 'extractive', retentionOverride: 400 })
    const summary = app.services.usage.conversation(session.id).summary!
    expect(summary.cutoffSeq).toBeGreaterThan(1)

    const conv = withDraft(
      app.services.usage.conversation(session.id),
      'What was the override passphrase for the ledger service?'
    )
    const request = buildModelRequest(conv, app.services.recall.forRequest(conv))
    const recalled = request.messages
      .flatMap((m) =>
        typeof m.content === 'string' ? [m.content] : m.content.map((p) => (p.type === 'text' ? p.text : ''))
      )
      .find((t) => t.startsWith('Recalled from earlier'))
    expect(recalled).toContain('(from the attached file “runbook.md”)')
    expect(recalled).toContain('the override passphrase is quokka-umbrella')
    // A passage, not the file: the early steps are in another chunk.
    expect(recalled).not.toContain('Step 1: restart worker pool 0')
    expect(request.recalledIds).toContain(app.services.chat.messages(session.id)[0]!.id)
  })

  it('joins a file’s passage to its message’s own hit, keeping the better score', () => {
    const merged = mergeRecallRows(
      [row('m1', 1, 'Here is the runbook', -2), row('m5', 5, 'other', -3)],
      [row('m1', 1, '(from the attached file “a.md”)\npassage', -4)]
    )
    expect(merged.map((r) => [r.messageId, r.score])).toEqual([
      ['m1', -4],
      ['m5', -3]
    ])
    expect(merged[0]!.text).toBe('Here is the runbook\n\n(from the attached file “a.md”)\npassage')
  })
})
