import { describe, expect, it } from 'vitest'
import { messageText } from '../../../shared/domain/chat-message'
import type { Snapshot, SummaryContent } from '../../../shared/domain/snapshot'
import { manualClock } from '../../../../test/support/temp-dir'
import { useTestApps } from '../../../../test/support/test-apps'
import type { App } from '../../app'
import { insertSummary } from '../../db/repositories/snapshots-repo'
import { summaryLines, summarySourcesNow, summarySpans } from './summary-sources'

/** A week of planning a team offsite and a database move, as people write it. */
const CHAT: Array<[role: 'user' | 'assistant', text: string]> = [
  ['user', 'We are planning the team offsite for the second week of October, probably in Lisbon.'],
  [
    'assistant',
    'Lisbon in October is a good choice: the weather is mild and flights from Berlin take about three and a half hours. How many people are coming?'
  ],
  ['user', 'Fourteen people, and Priya needs a step-free hotel because of her knee surgery.'],
  [
    'assistant',
    'Noted. I would look at the Hotel Avenida Palace near Restauradores station, which has lifts to every floor and a ramp at the entrance.'
  ],
  ['user', 'The budget is 9,000 euros for lodging, so roughly 640 per person for three nights.'],
  [
    'assistant',
    'That works for a mid-range hotel. Booking before the end of August usually saves around fifteen percent on group rates.'
  ],
  ['user', 'Separately, our Postgres cluster runs out of disk every Sunday when the analytics export kicks off.'],
  [
    'assistant',
    'The analytics export writes its temporary files to the data volume. Point temp_tablespaces at a separate volume and the Sunday spikes stop filling the main disk.'
  ],
  ['user', 'Marco suggested moving the export to the read replica instead. Is that safe?'],
  [
    'assistant',
    'Running the export on the read replica is safe as long as hot_standby_feedback is on, otherwise long queries get cancelled by replication conflicts.'
  ],
  ['user', 'Good. For the offsite dinner, Kenji is vegan and two people do not drink alcohol.'],
  [
    'assistant',
    'A set menu with a vegan main course and alcohol-free pairings covers everyone. Taberna da Rua das Flores takes groups of up to sixteen on weekdays.'
  ],
  ['user', 'We also need a projector and a whiteboard for the Thursday workshop on the roadmap.'],
  [
    'assistant',
    'Most hotels rent a meeting room with a projector for about 300 euros a day; ask for a whiteboard in the same booking.'
  ],
  ['user', 'Back to the database: the replica lags by forty seconds during the export. Is that a problem?'],
  [
    'assistant',
    'Forty seconds of lag during a batch export is expected. Alert only when the lag stays above five minutes, so the pager does not fire every Sunday.'
  ],
  ['user', 'Last thing: the offsite agenda should end by 4 pm on Friday so people can catch evening flights.'],
  [
    'assistant',
    'I will draft the agenda with the Friday sessions ending at 3:30 pm, leaving time to reach the airport.'
  ],
  ['user', 'Thanks. Please remind me later that the deposit for the hotel is due on the 15th of September.'],
  ['assistant', 'The hotel deposit is due on 15 September; I will keep it on the list.']
]

async function seeded(app: App): Promise<{ sessionId: string; snapshot: Snapshot }> {
  const { sessions, chat, compression } = app.services
  const session = sessions.create('Offsite and database')
  sessions.update(session.id, { modelId: 'gpt-4o' })
  for (const [role, text] of CHAT) await chat.append(session.id, { role, parts: [{ type: 'text', text }] })
  const { snapshot } = await compression.run(session.id, { summarizer: 'extractive', retentionOverride: 0 })
  return { sessionId: session.id, snapshot }
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

describe('summary sources', () => {
  const open = useTestApps()

  it('maps every line of an offline summary to exactly the message it was copied from', async () => {
    const app = open({ clock: manualClock() })
    const { sessionId, snapshot } = await seeded(app)
    const text = snapshot.content.summaryText
    const byId = new Map(app.services.chat.messages(sessionId).map((m) => [m.id, m]))
    const sources = summarySourcesNow(app.database.db, snapshot)

    const bullets = text.split('\n').filter((l) => l.startsWith('- '))
    expect(bullets.length).toBeGreaterThan(4)
    // Every quoted line is attributed, to one message, and that message holds the line's words.
    expect(sources.lines).toHaveLength(bullets.length)
    for (const { line, sources: from } of sources.lines) {
      expect(from).toHaveLength(1)
      const said = text.split('\n')[line]!.replace(/^- [^:]+: /, '')
      const original = new Set(words(messageText(byId.get(from[0]!.messageId)!.parts)))
      const held = words(said).filter((w) => original.has(w)).length
      expect(held / words(said).length, `line ${line}: ${said}`).toBeGreaterThan(0.8)
      // …and it is the one message that says the line's opening words.
      const opening = words(said).slice(0, 5).join(' ')
      const saying = [...byId.values()].filter((m) => words(messageText(m.parts)).join(' ').includes(opening))
      expect(saying.map((m) => m.id)).toEqual([from[0]!.messageId])
      expect(from[0]!.quoted).toBe(true)
    }
    // The messages named come with their place and start, oldest first.
    expect(sources.messages.map((m) => m.seq)).toEqual([...sources.messages.map((m) => m.seq)].sort((a, b) => a - b))
    expect(sources.messages.every((m) => byId.get(m.messageId)?.seq === m.seq && m.preview.length > 0)).toBe(true)
  })

  it('finds the message a model’s paraphrase stands for among its best three', async () => {
    const app = open({ clock: manualClock() })
    const { sessionId, snapshot } = await seeded(app)
    const seqOf = (fragment: string) =>
      app.services.chat.messages(sessionId).find((m) => messageText(m.parts).includes(fragment))!.seq
    const paraphrases: Array<[line: string, from: number]> = [
      ['- The team offsite is planned in Lisbon for mid-October.', seqOf('planning the team offsite')],
      ['- Priya had knee surgery, so the hotel must be step-free.', seqOf('Priya needs a step-free hotel')],
      ['- Lodging budget: €9,000 (about €640 each for three nights).', seqOf('The budget is 9,000 euros')],
      [
        '- Postgres disk fills up on Sundays because the analytics export writes temp files; use temp_tablespaces.',
        seqOf('Point temp_tablespaces')
      ],
      ['- Kenji is vegan; two attendees avoid alcohol at the dinner.', seqOf('Kenji is vegan')],
      ['- Replica lag alerts should fire only above five minutes.', seqOf('Alert only when the lag')],
      ['- The hotel deposit is due 15 September.', seqOf('deposit for the hotel is due')]
    ]
    const content: SummaryContent = {
      ...snapshot.content,
      summarizer: 'gpt-4o-mini',
      summaryText: ['## Key Points', ...paraphrases.map(([line]) => line)].join('\n')
    }
    const sources = summarySourcesNow(app.database.db, { ...snapshot, content })
    for (const [i, [line, from]] of paraphrases.entries()) {
      const found = sources.lines.find((l) => l.line === i + 1)
      expect(found?.sources.length, line).toBeGreaterThan(0)
      expect(found!.sources.length).toBeLessThanOrEqual(3)
      expect(
        found!.sources.map((s) => s.seq),
        line
      ).toContain(from)
    }
    // The section title stands for nothing.
    expect(sources.lines.some((l) => l.line === 0)).toBe(false)
  })

  it('looks for an appended part’s sources only among the messages after the summary it was appended to', async () => {
    const app = open({ clock: manualClock() })
    const { sessionId, snapshot } = await seeded(app)
    const db = app.database.db
    const messages = app.services.chat.messages(sessionId)
    const { chat, compression } = app.services
    // Said again later: the appended part can only mean the later message.
    await chat.append(sessionId, {
      role: 'user',
      parts: [{ type: 'text', text: 'Reminder: the hotel deposit is due on the 15th of September.' }]
    })
    await chat.append(sessionId, {
      role: 'assistant',
      parts: [{ type: 'text', text: 'Understood, 15 September for the deposit.' }]
    })
    const later = app.services.chat.messages(sessionId).at(-1)!
    const before = snapshot.content.summaryText
    const appended = `${before}\n\n- The hotel deposit is due on the 15th of September.`
    insertSummary(db, {
      id: 'appended-1',
      sessionId,
      content: {
        ...snapshot.content,
        summarizer: 'gpt-4o-mini',
        summaryText: appended,
        baseSnapshotId: snapshot.id,
        appendedAt: [before.length]
      },
      messageCutoffId: later.id,
      tokenCount: 100,
      createdAt: 10,
      status: 'draft'
    })
    const grown = compression.snapshots(sessionId).find((s) => s.id === 'appended-1')!
    expect(summarySpans(grown, () => snapshot)).toEqual([
      { from: 0, afterSeq: 0, uptoSeq: snapshot.cutoffSeq },
      { from: before.length, afterSeq: snapshot.cutoffSeq, uptoSeq: later.seq }
    ])
    const sources = summarySourcesNow(db, grown)
    const last = sources.lines.find((l) => l.line === appended.split('\n').length - 1)!
    expect(last.sources.map((s) => s.seq)).toEqual([later.seq - 1])
    // The lines before stay with the messages before.
    expect(
      sources.lines.filter((l) => l !== last).every((l) => l.sources.every((s) => s.seq <= snapshot.cutoffSeq))
    ).toBe(true)
    expect(messages.length).toBe(CHAT.length)
  })

  it('reads lines: titles, headers, code and the user’s notes stand for no message', () => {
    const text = [
      'Summary of 12 earlier messages (extractive):',
      '8 May 2023:',
      '- user: We are planning the offsite in Lisbon.',
      '## Decisions and Outcomes',
      '**Key Points:**',
      '1. **Budget**: 9,000 euros for lodging.',
      '```sql',
      'SELECT lodging FROM budget;',
      '```',
      'Notes the user wrote into an earlier summary (kept as written):',
      '',
      '- Remember the deposit for the hotel.'
    ].join('\n')
    expect(summaryLines(text).map((l) => [l.line, l.speaker, l.content])).toEqual([
      [2, 'user', 'We are planning the offsite in Lisbon.'],
      [5, 'budget', '9,000 euros for lodging.']
    ])
  })
})

describe('the route', () => {
  const open = useTestApps()

  it('answers by the contract, from memory the second time, and refuses a summary of another chat', async () => {
    const app = open({ clock: manualClock() })
    const { sessionId, snapshot } = await seeded(app)
    const first = await app.router.call('compression.sources', { sessionId, snapshotId: snapshot.id })
    expect(first.ok).toBe(true)
    const data = (first as { data: { snapshotId: string; lines: unknown[]; messagesIncluded: number } }).data
    expect(data.snapshotId).toBe(snapshot.id)
    expect(data.lines.length).toBeGreaterThan(0)
    expect(data.messagesIncluded).toBe(snapshot.content.messagesIncluded)
    const again = await app.router.call('compression.sources', { sessionId, snapshotId: snapshot.id })
    expect(again).toEqual(first)

    const other = app.services.sessions.create('Other').id
    const refused = await app.router.call('compression.sources', { sessionId: other, snapshotId: snapshot.id })
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } })
    const invalid = await app.router.call('compression.sources', { sessionId, snapshotId: '', extra: 1 })
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })
})
