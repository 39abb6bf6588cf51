import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../../e2e/fake-provider'
import { useFakeProvider, useTestApps } from '../../../../../test/support/test-apps'
import { DETAILS_HEADING } from '../../../engine/summary-details'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

describe('a model summary that drops facts', () => {
  const open = useTestApps()

  it('gets the dropped names, numbers and dates back as a Details list within its budget', async () => {
    const app = open({ env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })
    const session = app.services.sessions.create()
    app.services.sessions.update(session.id, { provider: 'openai', modelId: 'gpt-4o' })
    const turns: Array<[string, string]> = [
      [
        'Book the ferry to Skye for 14 June 2024, please.',
        'Booked: it leaves Mallaig at 07:10, seats 14A and 14B, £86 in total.'
      ],
      ['My cousin Ailsa Brodie meets us in Portree.', 'Noted, I will tell the driver to wait for Ailsa Brodie.'],
      ['The hotel confirmation number is HX-5521.', 'Saved HX-5521 with the booking.']
    ]
    for (const [question, answer] of turns) {
      fake.script([{ reply: answer }])
      app.services.chat.send(session.id, question)
      await app.services.chat.idle()
    }
    // The model's summary keeps the gist and drops every concrete fact.
    fake.script([{ reply: '## Context\nThe user planned a trip to Skye and the assistant made the bookings.' }])
    const { snapshot } = await app.services.compression.run(session.id, { summarizer: 'llm', retentionOverride: 1 })
    const text = snapshot.content.summaryText
    expect(text.startsWith('## Context\nThe user planned a trip to Skye')).toBe(true)
    expect(text).toContain(`\n\n${DETAILS_HEADING}\n- `)
    for (const fact of ['07:10', '£86', 'Ailsa Brodie', 'HX-5521', '14 June 2024']) expect(text).toContain(fact)
    // A short list: the sentences that state the facts, not the conversation again.
    expect(text.split('\n- ').length - 1).toBeLessThanOrEqual(6)
  })
})
