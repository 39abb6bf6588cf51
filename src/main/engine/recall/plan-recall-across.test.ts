import { describe, expect, it } from 'vitest'
import { planRecall, RECALL_ACROSS_PREFIX, type RecallCandidate, type RecallHit } from './plan-recall'

const count = (text: string) => Math.ceil(text.length / 4) + 3
const trip = { id: '0001-trip', title: 'Trip planning' }

function msg(seq: number, text: string, extra: Partial<RecallCandidate> = {}): RecallCandidate {
  return {
    id: `${extra.chat?.id ?? 'own'}-${seq}`,
    seq,
    role: seq % 2 ? 'user' : 'assistant',
    text,
    date: '3 March 2026',
    ...extra
  }
}
const hit = (seq: number, text: string, score: number, extra: Partial<RecallCandidate> = {}): RecallHit => ({
  ...msg(seq, text, extra),
  score
})

describe('planRecall across the chats of a project', () => {
  it('labels another chat’s passages with its title and date, after this chat’s own', () => {
    const plan = planRecall({
      hits: [
        hit(3, 'We booked the ferry to Hydra for 9 am.', -9, { chat: trip }),
        hit(3, 'The ferry app needs a login.', -5)
      ],
      neighbours: [
        msg(4, 'Great, the ferry it is.', { chat: trip }),
        msg(2, 'Which ferry should we take?', { chat: trip })
      ],
      budget: 400,
      countTokens: count
    })
    expect(plan.text.startsWith(RECALL_ACROSS_PREFIX)).toBe(true)
    expect(plan.text).toContain(
      '[From the chat "Trip planning", 3 March 2026]\nuser: We booked the ferry to Hydra for 9 am.\nassistant: Great, the ferry it is.'
    )
    // Seq 3 of this chat and seq 3 of the other are two passages, and this chat's comes first.
    expect(plan.text.indexOf('needs a login')).toBeLessThan(plan.text.indexOf('Hydra'))
    expect(plan.passages.find((p) => p.text.includes('Hydra'))?.chat).toEqual(trip)
    expect(plan.tokens).toBe(count(plan.text))
  })

  it('never pairs a hit with a neighbour from another chat', () => {
    const plan = planRecall({
      hits: [hit(5, 'The ferry leaves at noon.', -9)],
      neighbours: [msg(6, 'Noted, noon ferry in the other chat.', { chat: trip })],
      budget: 400,
      countTokens: count
    })
    expect(plan.messageIds).toEqual(['own-5'])
  })
})
