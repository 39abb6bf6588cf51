/**
 * Writes the fact-retention fixtures in fixtures/conversations/: long OpenAI-format conversations
 * (one JSON message per line) with planted facts, and a <name>.facts.json beside each.
 *
 *   npx tsx scripts/generate-fixtures.ts        (deterministic: a seeded PRNG per conversation)
 *
 * Each conversation walks through topics in order. A turn is composed from the topic's own questions
 * and sentences, domain asides, shared openers/closers and structured blocks (code, itineraries,
 * tables), with [[slots]] filled from the domain's lexicon so reused sentence shapes carry different
 * details. Facts are planted verbatim in one message each; later messages may allude to a fact but
 * never repeat its keywords, so a fact only survives compression if that one message does.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { get_encoding } from 'tiktoken'

const OUT = resolve(__dirname, '..', 'fixtures', 'conversations')

// ---------------------------------------------------------------- engine

type Rng = () => number

function mulberry32(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** One item per non-empty line: keeps the banks below readable. */
const lines = (s: string): string[] =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)

interface Topic {
  name: string
  /** User turns, each used once, in order: `question || the assistant's direct answer`. */
  asks: string[]
  /** Assistant sentences about this topic; drawn without replacement, refilled when used up. */
  says: string[]
  /** Structured blocks (code, lists, tables) an answer in this topic may include. */
  blocks?: string[]
}

interface FactSpec {
  fact: string
  keywords: string[]
  /** Topic index it is planted in, and the exchange within that topic. */
  topic: number
  turn: number
  /** The planting message (contains every keyword). */
  text: string
  /** Who says it; the other side answers with `ack` (which must not repeat the keywords). */
  by?: 'user' | 'assistant'
  ack: string
  /** Later allusions without the keywords, appended to a user turn some topics later. */
  refs?: string[]
}

interface Domain {
  name: string
  seed: number
  lex: Record<string, string[]>
  openers: string[]
  closers: string[]
  reactions: string[]
  asides: string[]
  /** Domain-wide assistant sentences, mixed into any topic. */
  generic: string[]
  /** Chance that an answer also carries one of the topic's generated blocks (tables, notes; default 0). */
  extraBlocks?: number
  /** Chance of a follow-up exchange after each question (default 0.4). */
  followups?: number
  /** Short exchanges dropped between topics: [user, assistant]. */
  interludes: Array<[string, string]>
  /** Things a user pastes (logs, tables, notes), per topic name: generated, so every paste differs. */
  pastes?: Record<string, Array<(c: Composer) => string>>
  /** Generated blocks (code, itineraries, tables) an answer may include, per topic name. */
  makers?: Record<string, Array<(c: Composer) => string>>
  topics: Topic[]
  facts: FactSpec[]
}

interface Message {
  role: 'user' | 'assistant'
  content: string
}

export class Composer {
  private readonly decks = new Map<string, string[]>()

  constructor(
    private readonly rng: Rng,
    private readonly lex: Record<string, string[]>
  ) {}

  chance(p: number): boolean {
    return this.rng() < p
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rng() * (hi - lo + 1))
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.rng() * items.length)]
    if (item === undefined) throw new Error('pick from an empty list')
    return item
  }

  /** Draws without replacement from a named deck, reshuffling when it runs out, never repeating the last draw. */
  draw(key: string, items: readonly string[]): string {
    let deck = this.decks.get(key)
    if (!deck || deck.length === 0) {
      deck = [...items]
      for (let i = deck.length - 1; i > 0; i--) {
        const j = Math.floor(this.rng() * (i + 1))
        ;[deck[i], deck[j]] = [deck[j]!, deck[i]!]
      }
      this.decks.set(key, deck)
    }
    return deck.pop()!
  }

  /** [[lexicon]], [[a|b|c]], [[n:lo-hi]] and [[n:lo-hi:step]]; slots may nest through the lexicon. */
  fill(template: string, depth = 0): string {
    if (depth > 5) return template
    return template.replace(/\[\[([^[\]]+)\]\]/g, (_, body: string) => {
      const num = /^n:(\d+)-(\d+)(?::(\d+))?$/.exec(body)
      if (num) {
        const step = Number(num[3] ?? 1)
        const lo = Math.ceil(Number(num[1]) / step)
        const hi = Math.floor(Number(num[2]) / step)
        return (this.int(lo, hi) * step).toLocaleString('en-US')
      }
      if (body.includes('|')) return this.fill(this.pick(body.split('|')), depth + 1)
      const list = this.lex[body]
      if (!list) throw new Error(`unknown slot [[${body}]]`)
      return this.fill(this.draw(`lex:${body}`, list), depth + 1)
    })
  }

  sentences(key: string, pool: readonly string[], n: number): string {
    const out: string[] = []
    for (let i = 0; i < n; i++) out.push(this.fill(this.draw(key, pool)))
    return out.join(' ')
  }
}

function compose(domain: Domain): {
  messages: Message[]
  facts: Array<{ fact: string; keywords: string[]; plantedAt: number }>
} {
  const c = new Composer(mulberry32(domain.seed), domain.lex)
  const messages: Message[] = []
  const planted: Array<{ fact: string; keywords: string[]; plantedAt: number }> = []
  const pendingRefs: Array<{ text: string; after: number }> = []

  /** An answer: the direct reply to the question, then related remarks, maybe a block, maybe a closing question. */
  const keywords = domain.facts.flatMap((f) => f.keywords.map((k) => k.toLowerCase()))
  /** Generated text must not mention a fact by accident: redraw until it does not. */
  const safe = (make: () => string): string => {
    for (let i = 0; i < 50; i++) {
      const text = make()
      const lower = text.toLowerCase()
      if (!keywords.some((k) => lower.includes(k))) return text
    }
    throw new Error(`${domain.name}: generated text keeps containing a fact keyword`)
  }

  /** An answer: the direct reply to the question, then related remarks, maybe a block, maybe a closing question. */
  const assistantTurn = (topic: Topic, answer: string | undefined, lead?: string): string =>
    safe(() => {
      const parts: string[] = []
      if (lead) parts.push(lead)
      else if (c.chance(answer ? 0.4 : 0.7)) parts.push(c.fill(c.draw('opener', domain.openers)))
      parts.push(answer ? c.fill(answer) : c.sentences(`says:${topic.name}`, topic.says, 3))
      const makers = domain.makers?.[topic.name] ?? []
      if (topic.blocks && c.chance(0.3)) parts.push(c.fill(c.draw(`blocks:${topic.name}`, topic.blocks)))
      else if (makers.length > 0 && c.chance(0.5)) parts.push(c.pick(makers)(c))
      parts.push(
        `${c.sentences(`says:${topic.name}`, topic.says, c.int(3, 4))} ${c.sentences('generic', domain.generic, c.int(2, 3))}`
      )
      if (domain.pastes?.[topic.name] && c.chance(domain.extraBlocks ?? 0))
        parts.push(
          c
            .pick(domain.pastes[topic.name]!)(c)
            .replace(/^[^\n]*:\n\n/, '')
        )
      if (c.chance(0.5)) parts.push(c.fill(c.draw('closer', domain.closers)))
      return parts.join('\n\n')
    })

  const userTurn = (topic: Topic, ask: string, fact?: string): string => {
    const parts: string[] = []
    parts.push(
      safe(() => {
        const own: string[] = []
        if (messages.length > 0 && c.chance(0.5)) own.push(c.fill(c.draw('reaction', domain.reactions)))
        own.push(c.fill(ask))
        if (!fact && c.chance(0.3)) own.push(c.fill(c.draw('aside', domain.asides)))
        const pastes = domain.pastes?.[topic.name] ?? []
        if (pastes.length > 0 && c.chance(0.55)) own.push(`\n\n${c.pick(pastes)(c)}\n\n`)
        return own.join(' ').replace(/ \n\n/g, '\n\n').replace(/\n\n /g, '\n\n').trim()
      })
    )
    if (fact) parts.push(fact)
    const due = pendingRefs.findIndex((r) => r.after <= messages.length)
    if (due >= 0) parts.push(pendingRefs.splice(due, 1)[0]!.text)
    // After a pasted block, what follows starts a new paragraph.
    return parts.reduce(
      (text, part) => (text === '' ? part : text.endsWith('```') ? `${text}\n\n${part}` : `${text} ${part}`),
      ''
    )
  }

  domain.topics.forEach((topic, ti) => {
    if (ti > 0 && domain.interludes.length > 0 && c.chance(0.7)) {
      const [u, a] = c.pick(domain.interludes)
      messages.push({ role: 'user', content: c.fill(u) }, { role: 'assistant', content: c.fill(a) })
    }
    topic.asks.forEach((beat, turn) => {
      const [ask = beat, answer] = beat.split(' || ')
      const facts = domain.facts.filter((f) => f.topic === ti && f.turn === turn)
      const fact = facts[0]
      if (facts.length > 1) throw new Error(`two facts at topic ${ti} turn ${turn}`)
      if (fact && fact.by === 'assistant') {
        messages.push({ role: 'user', content: userTurn(topic, ask) })
        planted.push({ fact: fact.fact, keywords: fact.keywords, plantedAt: messages.length })
        messages.push({ role: 'assistant', content: `${fact.text}\n\n${assistantTurn(topic, answer)}` })
        messages.push({ role: 'user', content: `${fact.ack} ${c.fill(c.draw('reaction', domain.reactions))}` })
        messages.push({ role: 'assistant', content: assistantTurn(topic, undefined) })
      } else if (fact) {
        planted.push({ fact: fact.fact, keywords: fact.keywords, plantedAt: messages.length })
        messages.push({ role: 'user', content: userTurn(topic, ask, fact.text) })
        messages.push({ role: 'assistant', content: assistantTurn(topic, answer, c.fill(fact.ack)) })
      } else {
        messages.push({ role: 'user', content: userTurn(topic, ask) })
        messages.push({ role: 'assistant', content: assistantTurn(topic, answer) })
      }
      if (c.chance(domain.followups ?? 0.4)) {
        messages.push({ role: 'user', content: c.fill(c.draw('followup', SHARED_FOLLOWUPS)) })
        messages.push({ role: 'assistant', content: assistantTurn(topic, undefined) })
      }
      if (fact?.refs) {
        fact.refs.forEach((text, i) => pendingRefs.push({ text, after: messages.length + 30 + i * 45 + c.int(0, 20) }))
      }
    })
  })
  return { messages, facts: planted }
}

/** Each keyword must appear in the planting message and nowhere else: otherwise the metric measures luck. */
function validate(
  domain: Domain,
  messages: Message[],
  facts: Array<{ fact: string; keywords: string[]; plantedAt: number }>
): void {
  const problems: string[] = []
  for (const f of facts) {
    for (const k of f.keywords) {
      const where = messages.flatMap((m, i) => (m.content.toLowerCase().includes(k.toLowerCase()) ? [i] : []))
      if (where.length !== 1 || where[0] !== f.plantedAt)
        problems.push(`${domain.name}: "${k}" at ${where.join(',')} (planted at ${f.plantedAt})`)
    }
  }
  const leftover = messages.filter((m) => m.content.includes('[['))
  if (leftover.length > 0) problems.push(`${domain.name}: unfilled slot in "${leftover[0]!.content.slice(0, 80)}"`)
  if (problems.length > 0) throw new Error(`fixture validation failed:\n${problems.join('\n')}`)
}

// ---------------------------------------------------------------- shared pools

const SHARED_REACTIONS = lines(`
  Okay, that helps.
  Hmm, I'm not fully convinced, but let's keep going.
  Makes sense.
  Right, that's roughly what I suspected.
  Good, that matches what I had in my notes.
  Interesting, I hadn't thought about it that way.
  Fair enough.
  That's useful, thank you.
  Got it, that clears up the confusion.
  I see. Slightly annoying, but fine.
  Okay. One thing at a time then.
  Yeah, I figured it would be something like that.
  Ah, that explains a lot actually.
  Sounds reasonable.
  Alright, noted.
  Hm, okay.
  That's more or less what I wanted to hear.
  Thanks, that's clearer now.
`)

const SHARED_FOLLOWUPS = lines(`
  Can you give me a more concrete example?
  What would you avoid doing here?
  And what's the most common mistake people make with this?
  Could you expand on that a little?
  What would you do first if you were in my position?
  Is there anything I'm forgetting?
  How confident are you about that?
  What's the cheapest version of this that still works?
  Okay, and what if that doesn't work out?
  Can you summarise the trade-offs in a few sentences?
  What would change if we had twice the time?
  Would you do it differently if it were your own project?
  Hmm. Which part of that matters most?
  What should I double-check before committing to this?
`)

const SHARED_OPENERS = lines(`
  Good question, and the answer depends a bit on what you optimise for.
  Short version first, then the details.
  Here's how I'd think about it.
  A few things are worth separating here.
  That's a reasonable instinct, with one caveat.
  Let me take these in order.
  There are two sensible options, and I'd lean towards the first.
  I'd approach this in three steps.
  This is one of those cases where the boring option is the right one.
  Yes, mostly, although it's worth being precise about the edge cases.
  Let's look at what actually matters here.
  I'd push back gently on one part of that.
`)

const SHARED_CLOSERS = lines(`
  Does that match what you had in mind?
  If you want, I can turn this into a checklist next.
  Tell me which of those you'd rather start with.
  Happy to go deeper on any of these.
  Shall we settle that and move on to the next part?
  Let me know if any of that conflicts with what you already decided.
  I can draft the next step whenever you're ready.
  Want me to sanity-check the numbers once you have them?
`)

// ---------------------------------------------------------------- software project

/** Generated pastes and snippets: each call draws new ids, timings and names. */
const swLog = (c: Composer): string => {
  const out: string[] = []
  const endpoints = [
    'POST /v1/bookings',
    'GET /v1/class-sessions',
    'POST /v1/bookings/:id/cancel',
    'GET /v1/invoices',
    'POST /v1/waivers/:id/sign',
    'GET /v1/members/:id/passes'
  ]
  const errors = [
    'SessionFullError: session is full',
    'TimeoutError: provider did not answer in 10000 ms',
    'ValidationError: starts_at must be in the future',
    'DatabaseError: deadlock detected',
    'NotFoundError: member not found'
  ]
  const day = String(c.int(10, 28))
  let minute = c.int(0, 50)
  let second = c.int(0, 59)
  const hour = c.int(6, 22)
  for (let i = 0, n = c.int(5, 9); i < n; i++) {
    second += c.int(1, 40)
    if (second > 59) {
      second -= 60
      minute = Math.min(59, minute + 1)
    }
    const ts = `2026-05-${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}.${String(c.int(0, 999)).padStart(3, '0')}Z`
    const ok = c.chance(0.6)
    const id = `req_${Math.floor(c.int(0, 36 ** 6 - 1))
      .toString(36)
      .padStart(6, 'a')}`
    out.push(
      ok
        ? `${ts} INFO  ${id} ${c.pick(endpoints)} ${c.pick(['200', '201', '204'])} ${c.int(12, 380)}ms`
        : `${ts} ERROR ${id} ${c.pick(endpoints)} ${c.pick(['409', '500', '502', '504'])} ${c.int(300, 10400)}ms ${c.pick(errors)}`
    )
  }
  return `Here's the log excerpt from staging:\n\n\`\`\`\n${out.join('\n')}\n\`\`\``
}

const swStack = (c: Composer): string => {
  const fn = c.pick(['bookSession', 'cancelBooking', 'renewPass', 'exportInvoices', 'syncSchedule', 'signWaiver'])
  const file = c.pick([
    'bookings/service.ts',
    'billing/service.ts',
    'members/service.ts',
    'jobs/worker.ts',
    'schedule/sync.ts'
  ])
  const err = c.pick([
    "TypeError: Cannot read properties of undefined (reading 'capacity')",
    'Error: connect ECONNREFUSED 127.0.0.1:6379',
    "TypeError: Cannot read properties of null (reading 'gymId')",
    'RangeError: Invalid time value'
  ])
  return `This is the stack trace I keep getting:\n\n\`\`\`\n${err}\n    at ${fn} (src/modules/${file}:${c.int(20, 240)}:${c.int(5, 40)})\n    at async handler (src/platform/http.ts:${c.int(30, 120)}:${c.int(5, 30)})\n    at async dispatch (node_modules/.pnpm/router/index.js:${c.int(100, 900)}:${c.int(3, 20)})\n\`\`\``
}

const swExplain = (c: Composer): string => {
  const rows = c.int(2000, 90000)
  const cost = c.int(1200, 48000)
  return `EXPLAIN ANALYZE output, if that helps:\n\n\`\`\`\nSort  (cost=${cost}.${c.int(10, 99)}..${cost + c.int(50, 900)}.${c.int(10, 99)} rows=${c.int(100, 3000)} width=${c.int(48, 220)}) (actual time=${c.int(80, 2400)}.${c.int(100, 999)}..${c.int(2500, 4200)}.${c.int(100, 999)} rows=${c.int(100, 3000)} loops=1)\n  Sort Key: starts_at\n  ->  Seq Scan on bookings  (cost=0.00..${cost}.00 rows=${rows} width=${c.int(48, 220)})\n        Filter: ((gym_id = ${c.int(2, 30)}) AND (starts_at >= now()))\n        Rows Removed by Filter: ${c.int(100000, 900000)}\nPlanning Time: 0.${c.int(100, 999)} ms\nExecution Time: ${c.int(900, 4800)}.${c.int(100, 999)} ms\n\`\`\``
}

const swJson = (c: Composer): string => {
  const entity = c.pick(['booking', 'session', 'invoice', 'pass'])
  return `The response I get back looks like this:\n\n\`\`\`json\n{\n  "object": "${entity}",\n  "id": "${entity.slice(0, 3)}_${c.int(10000, 99999)}x${c.int(100, 999)}",\n  "gym": "gym_${c.int(1, 40)}",\n  "status": "${c.pick(['confirmed', 'cancelled', 'pending'])}",\n  "created": "2026-0${c.int(4, 7)}-${String(c.int(10, 28))}T${String(c.int(8, 20))}:${String(c.int(10, 59))}:00Z",\n  "amount": ${c.int(90, 990) * 10},\n  "currency": "NOK"\n}\n\`\`\``
}

const swRepo = (c: Composer): string => {
  const [entity, table] = c.pick([
    ['Booking', 'bookings'],
    ['Invoice', 'invoices'],
    ['Pass', 'passes'],
    ['Member', 'members'],
    ['ClassSession', 'class_sessions']
  ] as const)
  const by = c.pick(['gymId', 'memberId', 'status'])
  return `\`\`\`ts\nexport async function list${entity}s(db: Db, filter: { ${by}: string; limit: number; after?: string }) {\n  const rows = await db\n    .selectFrom('${table}')\n    .selectAll()\n    .where('${by.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}', '=', filter.${by})\n    .$if(filter.after !== undefined, (q) => q.where('id', '>', filter.after!))\n    .orderBy('id')\n    .limit(filter.limit + 1)\n    .execute()\n  return { items: rows.slice(0, filter.limit).map(to${entity}), more: rows.length > filter.limit }\n}\n\`\`\``
}

const swZod = (c: Composer): string => {
  const [entity, fields] = c.pick([
    ['CreateBooking', ['session: z.string()', 'member: z.string()', "source: z.enum(['app', 'partner', 'desk'])"]],
    [
      'CancelBooking',
      [
        "reason: z.enum(['member_request', 'gym_closed', 'duplicate'])",
        "refund: z.enum(['auto', 'none']).default('auto')"
      ]
    ],
    [
      'CreatePass',
      ['member: z.string()', "kind: z.enum(['ten_class', 'monthly', 'annual'])", 'startsOn: z.iso.date()']
    ],
    ['UpdateSession', ['capacity: z.number().int().positive()', 'instructor: z.string().optional()']]
  ] as const)
  return `\`\`\`ts\nexport const ${entity}Body = z.object({\n${fields.map((f) => `  ${f},`).join('\n')}\n})\nexport type ${entity}Body = z.infer<typeof ${entity}Body>\n\`\`\``
}

const swTest = (c: Composer): string => {
  const cap = c.int(2, 30)
  return `\`\`\`ts\nit('${c.pick(['keeps the last spot for one member only', 'refunds a cancelled booking automatically', 'rejects an expired pass', 'shows the class in the gym time zone'])}', async () => {\n  const session = await given.session({ capacity: ${cap} })\n  const members = await given.members(${cap + 1})\n  const results = await Promise.allSettled(members.map((m) => api.book(session.id, m.id)))\n  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(${cap})\n})\n\`\`\``
}

const software: Domain = {
  name: 'software-project',
  seed: 0x5eed01,
  lex: {
    person: lines(`Dana
      Felix
      Aurelio
      Kemi
      Sunniva
      Rafael
      Marit`),
    table: lines(`bookings
      invoices
      members
      passes
      class_sessions
      payouts
      waivers`),
    entity: lines(`Booking
      Invoice
      Member
      Pass
      ClassSession
      Waiver`),
    endpoint: lines(`/v1/bookings
      /v1/bookings/:id/cancel
      /v1/members/:id/passes
      /v1/invoices
      /v1/class-sessions
      /v1/waivers/:id/sign`),
    ms: lines(`[[n:40-95]] ms
      [[n:110-480:10]] ms
      about [[n:2-9]] seconds`),
    thing: lines(`the booking flow
      the invoice job
      the members endpoint
      the waiver upload
      the class schedule sync
      the payout export`),
    day: lines(`Monday
      Tuesday
      Wednesday
      Friday`),
    count: lines(`[[n:3-9]]
      a dozen
      [[n:12-40]]
      a couple of hundred`)
  },
  openers: [
    ...SHARED_OPENERS,
    ...lines(`
    I looked at this from the API consumer's side first.
    Let me answer the practical part before the design question.
    Quick sanity check before the answer: this is about [[thing]], right?
  `)
  ],
  closers: [
    ...SHARED_CLOSERS,
    ...lines(`
    Want me to write the test first and then the change?
    I can open a draft PR description for [[person]] to review if that helps.
  `)
  ],
  reactions: SHARED_REACTIONS,
  asides: lines(`
    [[person]] asked about this in standup too, so it's not just me.
    I'm a bit tired of this part of the codebase, to be honest.
    I'll be out [[day]] afternoon, so I'd like to land something before then.
    We have maybe [[count]] customers hitting this path in the pilot.
    The previous contractor left very few comments here, which doesn't help.
    I'm trying not to gold-plate this before launch.
    [[person]] will probably review it, and they're picky about naming.
    For context, this has been flaky in CI about once a week.
  `),
  generic: lines(`
    I'd keep the change small enough that [[person]] can review it in one sitting.
    A short comment explaining why, not what, will save the next person an hour.
    It's worth writing down the decision in the ADR folder so it doesn't get relitigated in three months.
    If this turns out to be wrong, it's easy to reverse, which is a good property for a decision this early.
    The error path deserves as much attention as the happy path here.
    Logging the request id alongside the error will make this much easier to debug in production.
    I'd measure before optimising: the numbers usually surprise people.
    Naming matters more than it looks; a clear name here documents the invariant.
    Keep the public surface smaller than you think you need, because adding is easy and removing is a breaking change.
    A test that reproduces the bug before the fix is the best documentation you can leave.
    Avoid clever abstractions until you've written the same thing three times.
    This is also a good candidate for a feature flag so you can roll back without a deploy.
    Make the failure loud in development and graceful in production.
    I'd rather have one boring, well-tested path than two clever ones.
    Whatever you pick, make it consistent across endpoints; consumers notice inconsistency quickly.
    Don't forget to update the OpenAPI document in the same PR, or it will drift.
  `),
  interludes: [
    [
      'Random question: do you prefer squash merges or merge commits for a team of our size?',
      'For a small team with short-lived branches, squash merges keep main readable: one commit per change, with the PR description as the message. Merge commits only pay off when branch history itself carries meaning, which is rare for feature work. Whatever you choose, enforce it in the repository settings so nobody has to remember.'
    ],
    [
      'Quick one: is it bad practice to have a utils folder?',
      'Not inherently, but a utils folder tends to become a junk drawer. I prefer naming modules after what they do, like money.ts or dates.ts, so that each has a clear owner and clear tests. If something in utils is only used by one feature, move it next to that feature.'
    ],
    [
      'Sorry, unrelated: how long should a PR description be?',
      'Long enough that a reviewer understands why the change exists without opening the ticket: the problem, the approach, anything surprising, and how it was tested. Three short paragraphs is usually plenty. Screenshots or example requests help more than prose for API changes.'
    ],
    [
      "I keep getting 'address already in use' when I restart the dev server. Any idea?",
      'Usually the previous process is still alive, often because a watcher spawned a child that did not receive the signal. Find it with lsof -i :PORT and kill it, and make sure your dev script forwards SIGTERM to the child. Setting server.close() in a shutdown hook helps too.'
    ],
    [
      'Do you think we should adopt conventional commits?',
      "It helps if you generate changelogs or release notes automatically; otherwise it's mostly ceremony. A lighter rule, an imperative summary line under 72 characters plus a body that says why, gets most of the value with less friction."
    ]
  ],
  pastes: {
    kickoff: [(c) => `My draft so far:\n\n${swZod(c)}`],
    'data-model': [(c) => `This is what I have for the repository right now:\n\n${swRepo(c)}`],
    'api-design': [swJson],
    'auth-limits': [swLog],
    'payments-bug': [swLog, swJson],
    webhooks: [swJson],
    performance: [swExplain, swLog],
    testing: [swStack],
    deployment: [swLog, swStack],
    launch: [swLog]
  },
  makers: {
    kickoff: [swZod],
    'data-model': [swRepo],
    'api-design': [swZod, swRepo],
    performance: [swRepo],
    'payments-bug': [swTest],
    testing: [swTest]
  },
  topics: [
    {
      name: 'kickoff',
      asks: lines(`
        I'm starting a new backend for a client: bookings, memberships and invoicing for a chain of climbing gyms. Where would you start, architecture-wise? || I'd start from the two things that are genuinely hard in this domain: class capacity and money. Both want strong transactional guarantees, which points to a single Postgres database and a single deployable at first. Everything else, members, schedules, partner access, is comparatively ordinary CRUD.
        They want a public REST API that their own app and a couple of partner apps will use. Monolith or services from day one? || A modular monolith, without much hesitation. You get one deployable and one database, but bookings, billing and members live in separate modules that talk through explicit interfaces. If a seam later proves real, you can cut along it; splitting first means guessing the seams and paying for distributed debugging while you guess.
        Who should own what in a team of four? I'm worried about stepping on each other in one repo. || Give each module a primary owner, not an exclusive one: the owner reviews changes there and keeps its tests healthy. Billing deserves a dedicated owner early, because payment code punishes inconsistency. The shared platform folder, config, database access, logging, should change rarely and with two reviewers.
        What would a sensible repo layout look like for a TypeScript monolith like this? || One folder per module, each with routes, a service layer, a repository and its tests side by side, plus a small platform folder for cross-cutting pieces. Forbid imports between modules except through each module's index file. A lint rule can enforce that, and it keeps the boundaries honest long after everyone has forgotten the original plan.
        How much should we invest in local development setup at this stage? || Enough that a new person runs one command and gets a working API with realistic data, and no more. A compose file with Postgres and Redis plus a seed script covers it. Resist the temptation to reproduce the whole production topology locally.
        Should the background jobs live in the same deployable as the API? || Same codebase, separate process. The worker imports the same modules but runs its own entry point, so a slow export or a stuck job never competes with API requests for the event loop. Deploy both from the same image so versions never drift apart.
        Okay. What would you put in the first two weeks of work, concretely? || A thin vertical slice: create a member, sell a pass, book a class, see the charge on an invoice, all through the public API with tests. It sounds small, but it forces every foundational decision, IDs, money, errors, auth, to be made early. Everything after that is widening the slice.
        How strict should we be about TypeScript settings from the start? || As strict as you can bear on day one, because tightening later is miserable. Turn on strict mode and noUncheckedIndexedAccess, and treat any as a code smell that needs a comment. The compiler is the cheapest reviewer you will ever have.
        What should the README contain at this point? || How to install, run, seed, test and deploy, in that order, each as a copy-pasteable command. Add a short section pointing to where decisions are recorded. A README that lies is worse than none, so make updating it part of the definition of done.
      `),
      says: lines(`
        Start with a modular monolith: one deployable, but with modules for bookings, billing and members that only talk through explicit interfaces.
        Splitting into services before you know the seams mostly buys you distributed debugging.
        The domain has two hard parts, scheduling capacity and money, and both benefit from strong transactional guarantees in one database.
        Put each module in its own folder with its own routes, service layer and repository, and forbid cross-module imports except through an index file.
        A lint rule that enforces the module boundaries costs ten minutes and saves a lot of arguing later.
        I'd give one person ownership of billing early, because payment code needs consistent attention.
        For local setup, a docker-compose with Postgres and Redis plus a seed script is enough; anything fancier can wait.
        A seed script that creates [[count]] realistic members and a week of class sessions makes manual testing far less painful.
        Background jobs can run in the same codebase but as a separate process, so a slow export never competes with API requests.
        The first two weeks should produce a thin vertical slice: create a member, book a class, see it in an invoice.
        A thin slice forces the hard decisions early, which is exactly what you want.
        Keep configuration in environment variables validated at start-up, and fail fast when one is missing.
        Pick one HTTP framework and one validation library and stop there; the choice matters less than consistency.
        Write the README as you go: how to run, how to test, how to seed, and where the decisions live.
      `),
      blocks: [
        '```text\nsrc/\n  modules/\n    bookings/   routes.ts  service.ts  repository.ts  bookings.test.ts\n    billing/    routes.ts  service.ts  repository.ts  billing.test.ts\n    members/    routes.ts  service.ts  repository.ts  members.test.ts\n  platform/     db.ts  config.ts  logger.ts  http.ts\n  jobs/         worker.ts  schedules.ts\n```',
        '```yaml\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: dev\n  redis:\n    image: redis:7\n```'
      ]
    },
    {
      name: 'data-model',
      asks: lines(`
        Let's talk schema. What tables would you start with for bookings and passes? || Members, passes, class sessions, bookings, invoices and invoice lines cover the first slice. Gyms and staff come along because everything hangs off them. I'd hold back on anything for promotions, waitlists or family accounts until a real feature needs them.
        How should we represent a class with limited capacity so that two people can't grab the last spot? || Lock the session row inside the booking transaction, count the confirmed bookings, and insert only if there is room. The row lock serialises concurrent bookings for the same session without slowing down other sessions. Back it up with a partial unique index so one member can't hold two confirmed bookings for the same class.
        What's the safest way to store prices and invoice lines? || Integers in minor units plus a currency code, never floats or decimals that you then round in JavaScript. Invoice lines should copy the unit price and tax at the time of sale instead of referencing the current price list. That way an invoice from March still adds up after the prices change in June.
        Should members and staff share a users table or be separate? || Separate. Staff and members have different lifecycles, permissions and privacy obligations, and mixing them invites a permission bug where a member sees staff screens. If someone is both, two rows linked by email is simpler than a polymorphic users table.
        What IDs should we expose publicly? Auto-increment integers feel wrong for a public API. || Your instinct is right: sequential IDs leak volume and invite enumeration. Keep integer primary keys internally for joins and expose an opaque, unique public identifier on every resource. Prefixing public identifiers with the resource type makes logs and support tickets much easier to read.
        How do you like to handle migrations in a team, tooling aside? || Forward-only in every shared environment, reviewed like code, and small. If something needs undoing, write another migration rather than editing history. The one rule that prevents most pain: never edit a migration that has already run anywhere except your own machine.
        Do we need soft deletes for members, or is that a trap? || Mostly a trap. A deleted flag leaks into every query and eventually someone forgets it. For members, anonymise personal fields on request and keep the financial records, which you are obliged to keep anyway.
        How do we seed realistic data without copying production? || Write a seed script with a small random generator: a few gyms, a few hundred members, a month of classes, realistic booking patterns. Make it deterministic with a fixed seed so bugs reproduce. Production data should never leave production, even anonymised, unless legal has signed off.
        Any constraints you'd put in the database rather than in code? || Everything that must never be false: end after start, capacity positive, amounts non-negative, one confirmed booking per member per session. Code has bugs and scripts bypass code; constraints catch both. They also document the invariants better than any comment.
      `),
      says: lines(`
        I'd start with members, passes, class_sessions, bookings, invoices and invoice_lines, and add more only when a feature needs it.
        For capacity, lock the session row with SELECT ... FOR UPDATE inside the booking transaction and count confirmed bookings before inserting.
        A partial unique index on (session_id, member_id) where status is confirmed prevents double bookings even if the application has a bug.
        Store every amount as an integer in minor units together with a currency code; floating point and money never mix well.
        Invoice lines should copy the price at the time of purchase instead of pointing at the current price list.
        Keep staff and members separate: they have different lifecycles, permissions and privacy rules.
        Sequential integers leak volume and invite enumeration, so keep them internal and expose opaque identifiers.
        Migrations should be forward-only in production; if you need to undo something, write another migration.
        Never edit a migration that has already run anywhere other than your laptop.
        Soft deletes tend to leak into every query; I'd rather anonymise members on request and keep the financial records intact.
        The [[table]] table will grow fastest, so think about its indexes before the first pilot gym goes live.
        A check constraint that the end time is after the start time catches a surprising number of import bugs.
        Timestamps should be timestamptz everywhere; mixing in naive timestamps is the classic way to lose an hour twice a year.
        Foreign keys with ON DELETE RESTRICT are the right default for anything financial.
      `),
      blocks: [
        '```sql\nCREATE TABLE class_sessions (\n  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n  gym_id       bigint NOT NULL REFERENCES gyms (id),\n  starts_at    timestamptz NOT NULL,\n  ends_at      timestamptz NOT NULL CHECK (ends_at > starts_at),\n  capacity     integer NOT NULL CHECK (capacity > 0)\n);\n```',
        "```sql\nCREATE UNIQUE INDEX bookings_one_per_member\n  ON bookings (session_id, member_id)\n  WHERE status = 'confirmed';\n```",
        "```ts\nexport async function bookSession(tx: Tx, sessionId: bigint, memberId: bigint) {\n  const session = await tx.lockSession(sessionId)\n  const taken = await tx.countConfirmed(sessionId)\n  if (taken >= session.capacity) throw new SessionFullError(sessionId)\n  return tx.insertBooking({ sessionId, memberId, status: 'confirmed' })\n}\n```"
      ]
    },
    {
      name: 'api-design',
      asks: lines(`
        Now the public API. How would you shape the booking resources? || Bookings as a top-level collection with filters for member, session and status, plus a nested read under each session for convenience. Keep the representation flat and include the session time and gym so consumers rarely need a second call. State changes such as cancelling should be explicit actions, not free-form updates.
        How should we version the API? Partners will integrate against it and we can't break them. || Version by date rather than by major number, pin each partner to the version they integrated with, and let them opt into newer ones. Additive changes, new fields or endpoints, don't need a version bump at all. Breaking changes get a new version and a migration note.
        What's your take on pagination for the list endpoints? || Cursor-based, with an opaque cursor and a limit parameter. Offsets break when rows are inserted while someone pages through, and bookings are inserted constantly. Return the cursor for the next page in every list response and stop when it is absent.
        Filtering and sorting: query parameters, or something richer? || Plain query parameters, chosen per endpoint: gym, date range, status, member. A generic filter language looks flexible but you end up supporting every combination forever. Sorting can be a single parameter with a short whitelist of fields.
        How should errors look? Right now every endpoint returns something different. || One shape everywhere: a machine-readable type, a human title, the HTTP status, details for validation problems and the request id. Partners write one error handler instead of one per endpoint. It also makes your logs and support conversations much more consistent.
        Should cancelling a booking be DELETE or a POST to an action endpoint? || A POST to a cancel action. Cancelling keeps the booking around with a new status and may trigger a refund, which is not what DELETE promises. The action endpoint can also take a reason, which support will thank you for.
        How do we document all of this without the docs rotting? || Generate the reference from the same schemas that validate requests, so the docs cannot disagree with the code. Write the guides by hand: authentication, pagination, errors, webhooks. Add a changelog that partners can subscribe to.
        Should responses include related objects or just IDs? || IDs by default, with an expand parameter for the common relations. That keeps payloads predictable and small, while partners who need the session or member details can get them in the same request. Limit expansion depth to one level, or you will regret it.
        How do we handle time in the API: local times or UTC? || Timestamps in UTC with an explicit offset in ISO 8601, always. Where a local time matters, such as a class starting at 18:00 at a particular gym, include the gym's zone so clients can render it correctly. Never send a local time without context.
      `),
      says: lines(`
        Model the nouns partners care about, bookings, sessions, passes and invoices, and keep internal concepts out of the URLs.
        Cancellation is a state change with side effects like refunds, so a POST to [[endpoint]]-style action routes reads more honestly than DELETE.
        Cursor pagination is more stable than offsets when rows are inserted while someone pages through results.
        Keep filters boring: a handful of explicit query parameters per endpoint beats a generic query language nobody fully implements.
        Return the same error shape from every endpoint, with a machine-readable code, a human message and a request id.
        Validation errors should list every invalid field at once rather than failing on the first one.
        Dates in responses should be ISO 8601 with an offset, never a local time without context.
        Generate the OpenAPI document from the route schemas so the docs cannot silently drift from the code.
        A changelog page for partners, even a plain Markdown file, is worth more than perfect reference docs.
        The list endpoint for [[endpoint]] will be the most used one, so get its shape right first.
        Expanding related objects on request, with an expand parameter, saves partners a lot of round trips.
        I'd make the default sort order explicit in the docs, because partners will depend on it whether you promise it or not.
        Use 409 Conflict for a full class and 422 for a semantically invalid request; partners can then handle them differently.
        Publish example requests and responses for each endpoint; that is what people actually copy.
      `),
      blocks: [
        '```http\nPOST /v1/bookings/bkg_demo/cancel\nContent-Type: application/json\n\n{ "reason": "member_request", "refund": "auto" }\n```',
        '```json\n{\n  "type": "https://docs.example.com/errors/session-full",\n  "title": "Session is full",\n  "status": 409,\n  "request_id": "req_demo"\n}\n```'
      ]
    },
    {
      name: 'auth-limits',
      asks: lines(`
        How should partner apps authenticate? API keys, OAuth, both? || API keys for now. Partners are servers acting on their own behalf, and keys are simple to issue, rotate and revoke. OAuth only earns its complexity once third parties act on behalf of individual members.
        What limits should we put on partner traffic? || A per-key rate limit with a modest burst, enforced at the edge of the API before any database work. Start generous and tighten with data; the point is protecting the database from a runaway loop, not rationing normal use. Publish the limits so partners can plan.
        How do we store API keys safely? || Hash them like passwords, but with a fast hash since they are long random strings: a salted SHA-256 is fine. Show the full key exactly once at creation. Keep a short visible prefix so people can tell keys apart in dashboards and logs.
        What should happen when a partner exceeds the limit? || Return 429 with a Retry-After header, and include the limit and the remaining allowance in headers on every response. Well-behaved clients will back off on their own. Alert yourselves when one key is rejected repeatedly, because it usually means a bug on their side.
        Do we need request size limits too, or is that overkill? || Not overkill at all: a small body limit is cheap insurance against accidental uploads and simple abuse. Anything large, such as documents, should go directly to object storage through a signed URL. The API then only handles metadata.
        How would you let a gym admin rotate a key without downtime? || Allow two active secrets per key for a grace period: create the new one, deploy it on the partner side, then revoke the old one. The dashboard should show when each secret was last used. That last-used date is what tells admins it is safe to revoke.
        Anything special for the member-facing mobile app versus partners? || The app should use short-lived member sessions, not an API key shipped in the binary, because anything in the binary is public. Refresh tokens should be revocable per device. Rate limits for the app should be per member rather than per key.
        Should keys have scopes, or is that premature? || Minimal scopes are worth it from the start: read and write are enough. Most partners only need read access, and a leaked read-only key is a much smaller incident. Adding scopes later means touching every existing key.
        How do we audit what a partner did? || Log every write request with the key prefix, the endpoint, the resource id and the request id, and keep those logs longer than debug logs. When a gym asks who cancelled a booking, you want an answer in minutes. Never log the key itself or request bodies containing personal data.
      `),
      says: lines(`
        For server-to-server partners, API keys are fine; OAuth only pays off when third parties act on behalf of members.
        Store only a hash of each key, show the full key once at creation, and keep a short prefix visible so people can tell keys apart.
        A token bucket per key in Redis is simple and handles bursts gracefully.
        When a partner hits the limit, return 429 with a Retry-After header and the current limit in response headers.
        Rotation works best if a key can have two active secrets for a grace period.
        Log the key prefix, never the key, with every request.
        Request size limits are cheap insurance against accidental uploads and abuse.
        The mobile app should use short-lived member sessions rather than an API key baked into the binary.
        Scopes per key, even just read and write, make incident response much easier.
        Rate limit headers let well-behaved partners slow down before they get rejected.
        It's worth alerting when a single key suddenly uses far more than its usual share.
        Keep the auth middleware tiny and heavily tested; everything else depends on it.
        Revoking a key should take effect within seconds, so don't cache key lookups for long.
        A partner dashboard showing recent 4xx responses will save you support emails.
      `),
      blocks: [
        '```ts\nexport function rateLimit(redis: Redis, key: string, limit: number) {\n  const bucket = `rl:${key}:${Math.floor(Date.now() / 60_000)}`\n  return redis.multi().incr(bucket).expire(bucket, 90).exec()\n}\n```'
      ]
    },
    {
      name: 'payments-bug',
      asks: lines(`
        We have a nasty one: two members in the pilot were charged twice for the same ten-class pass. Where would you look first? || At every place a payment request can be repeated: the HTTP client, the job queue, and the member tapping the button twice. Double charges are almost always a retry without idempotency. Start with the provider's dashboard: two separate charges with different request ids tell you the retry happened on your side.
        The payment provider call has a timeout of 10 seconds and our HTTP client retries on timeout. Could that be it? || Very likely. A timeout doesn't mean the charge failed; it means you don't know. If the client then sends a fresh request, the provider sees two independent charges and happily performs both.
        How do we make sure this can't happen again, structurally? || Derive an idempotency key from your own invoice id and send it with every money-moving call, including retries. Record the attempt in your database before calling the provider. Then a retry, from any layer, either returns the original result or is refused.
        Where should idempotency keys live, and for how long? || Keep your side of the record in Redis or Postgres with an expiry longer than any retry window you have, including delayed jobs. Redis is fine if you accept that a flush loses them; Postgres is safer for money. The provider keeps its own copy, but you should not rely on theirs alone.
        How do we refund the affected members cleanly? || Refund through the provider's API, referencing the duplicate charge, and record the refund as a separate ledger entry. Don't edit the original invoice; auditors and accountants want to see what happened. Then write to each member personally with an apology and the expected refund date.
        We want to roll out the new checkout gradually. How? || Put it behind a flag evaluated per gym and enable it for one pilot gym first. Watch a reconciliation report daily and expand once a week of charges matches perfectly. Keep the old path working until the new one has handled a full billing cycle.
        Should I write a postmortem for a bug this size? || Yes, a short blameless one. Payment bugs recur in new shapes, and the write-up is where the team learns the pattern. Half a page is enough: timeline, cause, impact, what you changed, what you'll watch.
        How would a reconciliation job work? || Nightly, list the provider's charges and refunds for the previous day and match them against your invoices by idempotency key. Anything unmatched, duplicated or with a different amount goes into a report and an alert. It is boring code that catches exactly this class of bug within a day.
        What should the member see if a payment times out? || An honest pending state: "We're confirming your payment", with the booking held for a few minutes. Meanwhile the backend asks the provider what actually happened, using the idempotency key. Showing an error and inviting a retry is how the double charge happened in the first place.
      `),
      says: lines(`
        Double charges almost always come from a retry somewhere between your code and the provider that isn't idempotent.
        Check whether the retry happens in the HTTP client, in the job queue, or in the member's app when they tap twice.
        Every call that moves money should carry an idempotency key derived from your own invoice id, not generated per attempt.
        The provider deduplicates on that key, so a retried request returns the original result instead of charging again.
        Record the payment attempt in your database before calling the provider, so you can reconcile afterwards.
        A nightly reconciliation job comparing your invoices with the provider's charges would have caught this within a day.
        Refund through the provider's API and record the refund as its own ledger entry rather than editing the original invoice.
        Write to the affected members personally; people forgive bugs much more easily than silence.
        A gradual rollout by gym works well here: start with one pilot gym, watch the reconciliation report, then expand.
        A blameless postmortem is worth it even for small incidents, because payment bugs tend to recur in new shapes.
        Timeouts on payment calls are the dangerous case: you don't know whether the charge happened, so you must ask before retrying.
        The [[thing]] code should get a test that simulates a timeout followed by a retry.
        Alert on any invoice with more than one successful charge; it should be rare enough to investigate each one.
        Keep the provider's raw responses for a while; they are invaluable when a member disputes a charge.
      `),
      blocks: [
        '```ts\nconst attempt = await payments.charge({\n  amount: invoice.total,\n  currency: invoice.currency,\n  idempotencyKey: `invoice:${invoice.id}:charge`,\n})\n```'
      ]
    },
    {
      name: 'webhooks',
      asks: lines(`
        Partners want webhooks for booking changes. What should the design look like? || An outbox table written in the same transaction as the change, a worker that delivers events, and a delivery log. Events are facts in the past tense: booking created, booking cancelled, invoice paid. Partners register endpoints per event type from the dashboard.
        How do partners verify that a webhook really came from us? || Sign every delivery with a per-partner secret: an HMAC over a timestamp and the raw body, sent in a header. Partners recompute it and reject anything outside a short time window, which also defeats replays. Publish a ten-line verification example in two or three languages.
        What retry policy is reasonable when a partner endpoint is down? || Exponential backoff over roughly a day, then give up on that event and flag the endpoint. Email the partner when an endpoint starts failing, not when you finally disable it. Anything that returns 2xx counts as delivered, whatever the body says.
        Ordering: do we need to guarantee events arrive in order? || No, and promising it would make the delivery system far more complex. Include the event creation time and the object's version, so partners can ignore stale updates. Most partners only care about the latest state anyway.
        How should a partner recover if they missed events during an outage? || Offer an events list endpoint with a cursor, covering the last couple of weeks. After an outage they page through it from the last event they processed. That turns a delivery failure into a minor inconvenience instead of a support ticket.
        What goes in the payload: the full object or just an id? || The current state of the object, compact but complete enough that most partners never need to call back. Include the event id, type, creation time and API version at the top level. Keep personal data to what the partner already has access to.
        How do we test webhooks locally without exposing a laptop to the internet? || Add a tiny receiver to the compose file that logs every delivery and can be told to fail on demand. Point the local worker at it. For partners, a dashboard button that sends a sample event to their endpoint covers most integration testing.
        How do we stop a single slow partner from delaying everyone's webhooks? || Deliver per endpoint with its own queue or at least its own concurrency limit, and use short timeouts. A partner whose endpoint takes thirty seconds to answer should only slow down their own deliveries. Timeouts count as failures and go through the normal retry schedule.
        What metrics should we keep for webhooks? || Delivery latency from event creation to first successful delivery, success rate per endpoint, and queue depth. Queue depth is the early warning: if it grows steadily, something is stuck. Show partners their own success rate on the dashboard.
      `),
      says: lines(`
        Write events to an outbox table in the same transaction as the change, and deliver them from a separate worker.
        The outbox pattern means you never send a webhook for a change that was rolled back.
        Sign each payload with a per-partner secret and include a timestamp, so replays can be rejected.
        Retry with exponential backoff for about a day, then mark the endpoint as failing and email the partner.
        Don't promise ordering; include a sequence number or timestamp so partners can discard stale events.
        An events list endpoint lets partners catch up after an outage instead of relying on perfect delivery.
        Send a compact payload with the object's current state; partners hate having to call back for every event.
        Event types should be past-tense facts like booking.created and booking.cancelled.
        A test mode where partners can trigger sample events from the dashboard removes most integration pain.
        Locally, a tiny receiver service in docker-compose that logs deliveries is enough for development.
        Keep delivery attempts in a table so support can answer "did you send it?" in seconds.
        Give each event a unique id so partners can deduplicate; at-least-once delivery means duplicates will happen.
        Disable an endpoint automatically after a long run of failures, but tell the partner before you do.
        Version the payload schema just like the REST API, or the first field rename will break someone.
      `),
      blocks: [
        "```ts\nconst signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')\n```",
        '```json\n{ "id": "evt_demo", "type": "booking.cancelled", "created": "2026-05-02T09:14:00Z", "data": { "booking": "bkg_demo", "status": "cancelled" } }\n```'
      ]
    },
    {
      name: 'performance',
      asks: lines(`
        The bookings list is getting slow for the biggest gym. How do we find out why? || Get the actual query and run EXPLAIN ANALYZE with production-like data; guesses are usually wrong. Look at whether it scans the whole bookings table and sorts in memory. Then check how often the query runs, because a moderately slow query called constantly matters more than a rare slow one.
        The slow query is the one filtering bookings by gym and date range. Index suggestions? || A composite index on gym and start time, equality column first and range column second. Postgres can then jump to the gym and walk the dates in order, which also serves the sort. Build it concurrently so the table isn't locked during the pilot.
        Should we add caching for the class schedule? || Yes, the public schedule is a good candidate: read constantly, changed rarely, identical for everyone. A short expiry plus explicit invalidation on edits keeps staff from seeing stale data. Don't cache anything member-specific in a shared cache.
        Where do timezones come into this? Schedules show up an hour off for some users. || Almost certainly a daylight saving issue: somewhere a date is built by adding 24 hours or by formatting in the server's zone. Store instants in UTC and convert to the gym's zone only at the edges. Test with dates on both sides of the clock change.
        The invoice export job takes forever. Any ideas? || It is probably loading everything into memory and formatting row by row. Stream rows with a server-side cursor and write the CSV incrementally. Also check for a query per invoice inside the loop; that pattern alone often explains minutes of runtime.
        Connection pool sizing: how do we pick numbers? || Smaller than you think. The database can only work on a few queries per core at once, and a larger pool mostly adds waiting and memory. Size the pool per process so the total across all processes stays well under the server's connection limit.
        What should we monitor continuously so we notice this before customers do? || p95 and p99 latency per endpoint, error rate, database CPU and connection saturation, and the slowest queries by total time. Put them on one dashboard that someone actually looks at. Alert only on the ones that mean users are affected.
        Is it worth adding read replicas at this point? || Not yet. Replicas add lag and routing complexity, and your database is nowhere near its limits once the indexes are right. Revisit when reporting queries start competing with live traffic.
        How do we keep N+1 queries out of the codebase? || Log the number of queries per request in development and fail tests that exceed a budget for key endpoints. Batch loading in repositories, fetching sessions for many bookings at once, removes most of them. Code review catches the rest once people know to look.
      `),
      says: lines(`
        Measure first: look at the slowest queries by total time, not just by worst single execution.
        EXPLAIN ANALYZE on the real query with production-like data will tell you more than guessing.
        A composite index on (gym_id, starts_at) matches the filter and the sort, so Postgres can walk it in order.
        Put the equality column first and the range column second in a composite index.
        Cache the public class schedule for [[n:30-90:15]] seconds; it is read far more often than it changes.
        Invalidate the cache when a session is edited rather than waiting for expiry if staff complain about stale data.
        Store instants in UTC and convert at the edges using the gym's configured zone.
        Daylight saving bugs usually come from adding 24 hours instead of one calendar day.
        The export job should stream rows with a cursor instead of loading everything into memory.
        Pool size should be small; a few connections per CPU core on the database side is usually plenty.
        Watch p95 latency per endpoint, error rate, and database connection saturation.
        The [[thing]] went from [[ms]] to under a tenth of that after the index, according to [[person]].
        Don't cache anything with member-specific data in a shared cache without the member in the key.
        A slow query log with a threshold of a few hundred milliseconds is a cheap early warning.
      `),
      blocks: [
        '```sql\nCREATE INDEX CONCURRENTLY bookings_gym_starts_at\n  ON bookings (gym_id, starts_at);\n```',
        '```sql\nSELECT query, calls, mean_exec_time, total_exec_time\nFROM pg_stat_activity_summary\nORDER BY total_exec_time DESC\nLIMIT 20;\n```'
      ]
    },
    {
      name: 'testing',
      asks: lines(`
        Let's sort out testing. What's the right mix for an API like ours? || Mostly integration tests through the HTTP layer against a real database, unit tests for pure logic such as pricing and proration, and a handful of end-to-end smoke tests against staging. The integration tests give you the confidence; the unit tests give you speed where the cases multiply.
        Integration tests against a real Postgres, or mocks? || A real Postgres. Mocks of your own data layer test the mock, and most bugs in this kind of app live in queries and constraints. With a template database or per-worker schemas it is fast enough.
        How do we keep the test suite fast as it grows? || Parallelise by file, give each worker its own schema, and keep fixtures small and explicit. Measure the slowest tests monthly and fix the top few. A suite that runs in a couple of minutes gets run; one that takes fifteen gets skipped.
        How should CI be set up for the team? || Lint, type-check, unit and integration tests on every push, with merges blocked on red. Cache dependencies and run the database as a service container. Keep the pipeline definition short enough to read in one screen.
        What about contract tests for partners? || Generate checks from the OpenAPI document and fail the build on breaking changes: removed fields, changed types, new required parameters. It catches the accidental break long before a partner does. Additive changes pass untouched.
        How do we test the payment provider integration without hitting the real thing? || A local fake in the normal suite, with switches for declines, timeouts and slow responses, plus a nightly job against the provider's test mode. The fake is where you prove the retry and idempotency logic. The nightly job tells you when the provider changes something.
        Any rules you'd set for the team around tests? || Every bug fix starts with a failing test, flaky tests are fixed or deleted within a week, and tests are named after behaviour. Builders for test data live next to the tests that use them. Nobody merges a change that lowers coverage of the billing module.
        How do we test time-dependent logic like pass expiry? || Inject the clock instead of reading the system time, so tests can set the date explicitly. Then expiry, proration and daylight saving cases become ordinary unit tests. Avoid sleeping in tests; it is slow and still flaky.
        Should we do load testing before launch? || A modest one, yes: replay a realistic mix of schedule reads and bookings at a few times the expected peak against staging. The goal is to find the first bottleneck, not to produce an impressive number. Usually it is a missing index or a pool that is too small.
      `),
      says: lines(`
        Most of the value is in integration tests that hit the HTTP layer with a real database.
        Unit tests are great for pure logic like pricing and proration, where the cases multiply.
        Run each test in a transaction that rolls back, or give each worker its own schema.
        Mocks of your own database layer tend to test the mock rather than the behaviour.
        Parallelise by test file and keep fixtures small and explicit.
        CI should run lint, type-check and tests on every push, and block merges on red.
        Contract tests generated from the OpenAPI document catch accidental breaking changes.
        For the payment provider, use their test mode in a nightly job and a local fake in the normal suite.
        A fake that can simulate timeouts and declines is worth more than a perfect happy-path fake.
        Flaky tests should be fixed or deleted within a week; quarantining them forever erodes trust.
        Name tests after behaviour, like "refuses a booking when the session is full".
        Keep test data builders close to the tests so people can see what matters in each case.
        The whole suite should stay under a few minutes, or people will stop running it locally.
        A test for [[thing]] that runs against a real Postgres found [[count]] issues the mocks never did.
      `),
      blocks: [
        "```ts\nit('refuses a booking when the session is full', async () => {\n  const session = await given.session({ capacity: 1 })\n  await given.booking({ session })\n  const res = await api.post('/v1/bookings', { session: session.id })\n  expect(res.status).toBe(409)\n})\n```"
      ]
    },
    {
      name: 'deployment',
      asks: lines(`
        Deployment time. Where and how would you host this? || A managed Postgres, a managed Redis and containers on a managed platform. No Kubernetes for a team of four without an ops person. Pay for point-in-time recovery on the database; it is the cheapest insurance you will buy.
        How do we do zero-downtime deploys with migrations? || Run migrations before the new version starts, and make each migration compatible with both the old and new code. Renames become add, backfill, switch, drop, spread over separate deploys. Then a deploy is just replacing containers behind a health check.
        What does observability look like for a team of four with no ops person? || Structured logs with request ids, error tracking with release tags, and a small metrics dashboard. Add tracing only for slow requests at first. The test is whether you can answer "what happened to this booking?" in five minutes.
        How should secrets be managed? || In the platform's secret store, injected as environment variables and validated at start-up. Nothing secret in the repository, not even in an example file. Rotate the database password once before launch so you know the procedure works.
        Backups and restore: what's the minimum we should have before launch? || Automated daily backups, point-in-time recovery, and one real restore drill into a scratch database. Time the drill and write down the steps. A backup you have never restored is a hope, not a backup.
        Should we run staging as an exact copy of production? || Same shape, not same size: same versions, same configuration keys, same deployment pipeline, much less data. Differences between staging and production should be written down. Every undocumented difference eventually causes a surprise.
        What's a sane alerting setup that won't wake us up for nothing? || Page only on symptoms users feel, like elevated error rates or latency on booking endpoints, and send everything else to a channel. Each alert links to a short runbook. If an alert fires and nobody needs to act, delete or tune it.
        How should releases be tagged and tracked? || Tag every deploy with the commit and a timestamp, and send the tag to the error tracker. Then a spike in errors lines up with a release on the graph. Release notes can be generated from merged PR titles.
        How do we handle configuration that differs per gym? || Store it in the database with an admin screen, not in environment variables. Environment variables are for infrastructure; gym settings are business data that staff will want to change without a deploy. Validate it with the same schema library as the API.
      `),
      says: lines(`
        A managed Postgres plus containers on a managed platform is the right amount of infrastructure for this team.
        Run migrations as a separate step before the new version starts, and make every migration backwards compatible with the running code.
        Expand, migrate, contract: add the new column, backfill, switch the code, and only then drop the old column.
        Structured JSON logs with a request id, plus traces for slow requests, cover most debugging needs.
        Keep secrets in the platform's secret store and inject them as environment variables; never commit them, even encrypted, unless you have tooling around it.
        Backups only count once you've restored one; schedule a restore drill before launch.
        Point-in-time recovery is worth paying for when the database holds invoices.
        Staging should match production in shape, not size: same versions, same configuration, less data.
        Alert on symptoms users feel, like error rate and latency, not on every CPU spike.
        Every alert should have a short runbook entry, even if it's three lines.
        Health checks should test the database connection but not external providers, or their outage becomes yours.
        Tag every deploy in your error tracker so regressions are easy to pin on a release.
        A rollback should be one command and should be rehearsed at least once.
        Cost alerts are easy to set up and prevent unpleasant surprises at the end of the month.
      `),
      blocks: [
        '```yaml\ndeploy:\n  steps:\n    - run: npm ci && npm run build\n    - run: npm run migrate\n    - run: ./scripts/release.sh --wait-healthy\n```'
      ]
    },
    {
      name: 'launch',
      asks: lines(`
        We're close to launch. What should the final checklist look like? || Restore drill done, alerts tested by triggering them, rollback rehearsed, rate limits verified, partner documentation published, support contacts agreed. Walk through it together in one meeting and record who checked what. Anything not done gets an explicit decision, not a silent skip.
        Who should be on call during launch week, and how should we structure it? || One primary and one secondary per day, a shared channel, and a clear rule for when to wake the other person. Hand over in writing at the end of each shift. Keep the first week's evenings free of other commitments if you can.
        We had a small incident yesterday: the schedule sync stopped for an hour. How should we handle the follow-up? || Write a short timeline now while everyone remembers, then pick one or two concrete follow-ups, such as an alert on sync lag. Share the summary with the gym staff who noticed. Small incidents handled well build a lot of trust.
        What should we tell the gym staff about known limitations? || A one-page list: what doesn't work yet, what to do instead, and who to contact. Be specific, for example that family accounts aren't supported and how to handle them manually. Staff cope with limitations; they struggle with surprises.
        After launch, how do we decide what to work on next? || Let usage decide: support tickets, slow endpoints, partner requests and the list of shortcuts you took before launch. Review them weekly for the first month. Resist big new features until the support queue is quiet.
        How should we run the retrospective? || Ask three concrete questions: what surprised us, what slowed us down, what do we want to keep doing. Collect answers in writing first so quieter people are heard. End with at most three actions with owners.
        Anything you'd do differently if we started this project again? || Build the reconciliation job and the outbox in the first month instead of after an incident. Decide on identifiers and error shapes before writing the second endpoint. And write the seed script on day one; it pays for itself within a week.
        How do we keep the partner relationships healthy after launch? || A monthly short call or email with each active partner, a public changelog, and fast responses to their bug reports. Partners who feel heard tolerate the occasional breaking change. Partners who are surprised start building workarounds.
        What should we measure to know the launch went well? || Booking success rate, payment failures, support tickets per hundred members, and partner error rates. Compare the first two weeks with the pilot. If the numbers are flat or better, it went well, whatever the launch-day stress felt like.
      `),
      says: lines(`
        The checklist should cover backups restored, alerts tested, rollback rehearsed, rate limits verified and partner docs published.
        Launch week on-call should be one primary and one secondary, with a shared channel and a clear escalation path.
        For the incident, write a short timeline while memories are fresh, then decide on one or two concrete follow-ups.
        Tell staff plainly what doesn't work yet and what to do instead; a one-page FAQ prevents a lot of confusion.
        After launch, let real usage decide the backlog: support tickets, slow endpoints and partner requests.
        A retrospective works best with specific questions: what surprised us, what slowed us down, what should we keep.
        Celebrate the launch; the team will need the energy for the first month of support.
        Keep a running list of shortcuts taken before launch so they don't quietly become permanent.
        The [[thing]] will probably need attention first, based on what the pilot showed.
        Schedule a check-in with the biggest gym two weeks after launch, when they've hit the real edge cases.
        Watch the support inbox daily in the first weeks; it's the best early signal you have.
        I'd start the next project with the reconciliation job and the outbox from day one.
        Document the on-call handover so whoever is next knows what happened during their shift.
        A freeze on risky changes for the first few days after launch is cheap and sensible.
      `)
    }
  ],
  facts: [
    {
      fact: 'the client is Granite Peak Climbing',
      keywords: ['Granite Peak'],
      topic: 0,
      turn: 1,
      text: 'The client is Granite Peak Climbing, fourteen gyms spread over Norway, and they want the partner API to be the product, not an afterthought.',
      ack: 'Fourteen gyms with partners on top changes the priorities a little.'
    },
    {
      fact: 'the tech lead is Ilse Brandvold',
      keywords: ['Brandvold'],
      topic: 0,
      turn: 2,
      text: 'Ilse Brandvold is the tech lead on their side and has the final say on anything architectural.',
      ack: 'Good to know who signs off on the architecture.'
    },
    {
      fact: 'Node is pinned to 20.11.1',
      keywords: ['20.11.1'],
      topic: 0,
      turn: 4,
      text: 'We pinned Node to 20.11.1 in .nvmrc and the Dockerfile because their build servers are stuck on it for now.',
      ack: 'Pinning the runtime in both places is the right call.'
    },
    {
      fact: 'the public launch is on 2026-09-14',
      keywords: ['2026-09-14'],
      topic: 0,
      turn: 6,
      text: 'The public launch date is fixed: 2026-09-14, and marketing has already announced it to members.',
      ack: 'A fixed date means scope is the variable, so the first slice has to be thin.'
    },
    {
      fact: 'the staging database port is 5433',
      keywords: ['5433'],
      topic: 1,
      turn: 0,
      text: 'Heads up: the staging Postgres listens on 5433, not the default port, because another service on that box already took the default.',
      ack: 'Noted for the connection strings; make sure the config validation catches a wrong port early.',
      refs: [
        "By the way, the health check on staging failed again because someone assumed the default Postgres port. Let's make sure the new readiness probe uses the right one."
      ]
    },
    {
      fact: 'money is stored as integer minor units in amount_minor columns',
      keywords: ['amount_minor'],
      topic: 1,
      turn: 2,
      text: "For what it's worth, the team already agreed on integer columns named amount_minor, always with a currency column next to each.",
      ack: 'That naming makes the unit impossible to miss in code review.'
    },
    {
      fact: 'public IDs are ULIDs with a type prefix',
      keywords: ['ULID'],
      topic: 1,
      turn: 4,
      text: 'Ilse already decided they will be ULIDs with a short type prefix, so they sort by creation time. Is that a sensible choice?',
      ack: 'Sortable and opaque is a good combination for a public API.'
    },
    {
      fact: 'migrations run with dbmate',
      keywords: ['dbmate'],
      topic: 1,
      turn: 5,
      text: "We're going with dbmate for migrations: plain SQL files, nothing generated, and the team already knows it.",
      ack: 'Plain SQL migrations age well.'
    },
    {
      fact: 'API versioning uses the X-Tidepool-Version header',
      keywords: ['X-Tidepool-Version'],
      topic: 2,
      turn: 1,
      text: "Let's go with a date-based version in a request header called X-Tidepool-Version, pinned per partner key when the header is missing.",
      ack: 'Header versioning with a per-key default is what most payment APIs do, and partners understand it.',
      refs: [
        'When we document the new endpoints, remember partners pin a version through that custom header we chose, so the examples must include it.'
      ]
    },
    {
      fact: 'pagination uses next_cursor with a maximum page size of 175',
      keywords: ['next_cursor', '175'],
      topic: 2,
      turn: 2,
      text: 'For pagination we settled on an opaque next_cursor in every list response and a maximum page size of 175.',
      ack: 'An opaque cursor lets you change the implementation later without breaking anyone.'
    },
    {
      fact: 'errors follow RFC 7807 problem details',
      keywords: ['7807'],
      topic: 2,
      turn: 4,
      text: 'We decided every error response follows RFC 7807 problem details, with our own code field added.',
      ack: 'Using the standard shape means partners can reuse existing client libraries.'
    },
    {
      fact: 'partners are limited to 120 requests per minute per key',
      keywords: ['120 requests per minute'],
      topic: 3,
      turn: 1,
      text: 'The client wants partners limited to 120 requests per minute per key, with a small burst allowance.',
      ack: 'That is generous enough for normal integrations and still protects the database.'
    },
    {
      fact: 'request bodies are capped at 512 KB',
      keywords: ['512 KB'],
      topic: 3,
      turn: 4,
      text: 'We set the request body limit to 512 KB, since waiver uploads go straight to object storage anyway.',
      ack: 'Keeping uploads out of the API process is the right reason for a low limit.'
    },
    {
      fact: 'the double charge came from settleInvoice() retrying without an idempotency key',
      keywords: ['settleInvoice'],
      topic: 4,
      turn: 1,
      by: 'assistant',
      text: 'Found it, I think: settleInvoice() wraps the provider call in the HTTP client that retries on timeout, and it builds a fresh request without any idempotency key on each attempt. A slow response plus one retry is exactly a double charge.',
      ack: "Yes, that's the function. Ugh."
    },
    {
      fact: 'idempotency keys are kept in Redis for 36 hours',
      keywords: ['36 hours'],
      topic: 4,
      turn: 3,
      text: "We'll keep idempotency keys in Redis for 36 hours, which covers the provider's own retry window with room to spare.",
      ack: 'That window covers delayed job retries too.'
    },
    {
      fact: 'the gradual checkout rollout uses the checkout_v2_rollout feature flag',
      keywords: ['checkout_v2_rollout'],
      topic: 4,
      turn: 5,
      text: 'The new checkout goes behind a feature flag called checkout_v2_rollout, enabled per gym.',
      ack: 'Per-gym flags give you a natural canary.'
    },
    {
      fact: 'webhooks are signed in the Tidepool-Signature header',
      keywords: ['Tidepool-Signature'],
      topic: 5,
      turn: 1,
      text: 'The signature goes in a Tidepool-Signature header: timestamp plus HMAC-SHA256 of the body, five minute tolerance.',
      ack: 'A timestamped signature with a tolerance window covers replay attacks too.'
    },
    {
      fact: 'slow queries are found with pg_stat_statements',
      keywords: ['pg_stat_statements'],
      topic: 6,
      turn: 0,
      text: 'Ops finally enabled pg_stat_statements on the production database, so we can see real query totals now.',
      ack: 'Great, then we can rank queries by total time instead of guessing.',
      refs: ['Can we add the top queries view from that Postgres extension Ops enabled to the weekly report?']
    },
    {
      fact: 'gym schedules use the Europe/Oslo time zone',
      keywords: ['Europe/Oslo'],
      topic: 6,
      turn: 3,
      text: 'All gyms are configured with Europe/Oslo as their zone, but one is about to open in Finland, so we cannot hard-code it.',
      ack: 'Then the zone has to live on the gym record, and every conversion must read it from there.'
    },
    {
      fact: 'the team prefers Vitest and no snapshot tests',
      keywords: ['Vitest'],
      topic: 7,
      turn: 0,
      text: 'Team preference, non-negotiable: we use Vitest, and no snapshot tests, because nobody reads snapshot diffs.',
      ack: 'Explicit assertions are easier to review, agreed.'
    },
    {
      fact: 'sprint demos are every other Thursday at 15:30',
      keywords: ['15:30'],
      topic: 7,
      turn: 3,
      text: 'Sprint demos with the client are every other Thursday at 15:30, so CI has to be green by lunchtime on those days.',
      ack: 'A fixed demo slot is a good forcing function for keeping main releasable.'
    },
    {
      fact: 'production runs in eu-north-1',
      keywords: ['eu-north-1'],
      topic: 8,
      turn: 0,
      text: 'Hosting decision: everything runs in eu-north-1, because the client wants the data in the Nordics.',
      ack: 'Data residency settles the region question quickly.'
    },
    {
      fact: 'the infrastructure budget is $1,450 a month',
      keywords: ['$1,450'],
      topic: 8,
      turn: 5,
      text: 'Budget constraint from the client: infrastructure must stay under $1,450 a month including the managed database.',
      ack: 'That rules out anything extravagant, but it is plenty for this traffic.'
    },
    {
      fact: 'errors are tracked in the Sentry project tidepool-api-prod',
      keywords: ['tidepool-api-prod'],
      topic: 8,
      turn: 2,
      text: 'Errors go to the Sentry project tidepool-api-prod, and staging reports to its own project.',
      ack: 'Separate projects keep staging noise out of the production alerts.'
    },
    {
      fact: 'Tomasz is the primary on-call during launch week',
      keywords: ['Tomasz'],
      topic: 9,
      turn: 1,
      text: 'Tomasz volunteered as primary on-call for launch week, with me as secondary.',
      ack: 'Make sure the primary has the runbooks and the provider dashboard access before the first night.'
    }
  ]
}

// ---------------------------------------------------------------- trip planning

const CITIES: Record<string, string[]> = {
  Kyoto: [
    'Kiyomizu-dera at opening time',
    "the Philosopher's Path",
    'Nanzen-ji and its aqueduct',
    'Nishiki Market',
    'Gion in the early evening',
    'Arashiyama bamboo grove',
    'the Golden Pavilion',
    'a tea ceremony in Higashiyama',
    'Tofuku-ji',
    'Fushimi Inari lower gates'
  ],
  Tokyo: [
    'Asakusa and Senso-ji',
    'the Meiji Shrine forest',
    'Yanaka old town',
    'a depachika food hall',
    'the Mori art museum',
    'Shimokitazawa vintage shops',
    'the Imperial Palace east gardens',
    'Tsukiji outer market',
    'an evening in Shinjuku Golden Gai'
  ],
  Kinosaki: [
    'the seven public baths',
    'the ropeway to Daishi-yama',
    'a canal walk in yukata',
    'the local crab-free set lunch'
  ],
  Osaka: ['Dotonbori street food', 'the castle park', 'Kuromon market', 'Shinsekai and the old tower'],
  Nara: ['Todai-ji', 'the deer park', 'Kasuga shrine lanterns', 'Naramachi lanes']
}

const tripItinerary = (c: Composer): string => {
  const city = c.pick(Object.keys(CITIES))
  const sights = CITIES[city]!
  const first = c.int(2, 15)
  const days: string[] = []
  for (let day = first, n = first + c.int(1, 2); day <= n; day++) {
    const parts = ['Morning', 'Lunch', 'Afternoon', 'Evening'].map((slot) =>
      slot === 'Lunch'
        ? `- ${slot}: ${c.pick(['a lunch set near the station', 'udon at a counter place', 'a bento in the park', 'soba nearby', 'a conveyor-belt sushi spot', 'tofu lunch at a temple restaurant', 'curry rice at a tiny diner'])}`
        : `- ${slot}: ${c.pick(sights)}${c.chance(0.4) ? ` (${c.pick(['book ahead', 'go early', 'about two hours', 'entry around ¥600', 'skip if raining', 'taxi from the hotel'])})` : ''}`
    )
    days.push(`Day ${day}, ${city}:\n${parts.join('\n')}`)
  }
  return days.join('\n\n')
}

const tripFlights = (c: Composer): string => {
  const rows: string[] = []
  for (let i = 0, n = c.int(3, 4); i < n; i++) {
    const via = c.pick(['Helsinki', 'Frankfurt', 'Istanbul', 'Dubai', 'Munich'])
    rows.push(
      `- BER → KIX via ${via}: ${c.int(14, 22)}h ${c.int(0, 5) * 10}m, layover ${c.int(1, 4)}h ${c.int(0, 5) * 10}m, €${c.int(78, 160) * 10} per person, ${c.pick(['1 checked bag', 'no checked bag', '2 checked bags'])}`
    )
  }
  return `These are the options the search gave me:\n\n${rows.join('\n')}`
}

const tripRestaurants = (c: Composer): string => {
  const names = [
    'Menya Koji',
    'Izakaya Tanuki',
    'Soba Kurumaya',
    'Tempura Hanabi',
    'Kissa Momiji',
    'Yakitori Torimaru',
    'Obanzai Kotori',
    'Udon Ichiban-do'
  ]
  const rows: string[] = []
  for (let i = 0, n = c.int(3, 5); i < n; i++) {
    rows.push(
      `- ${c.pick(names)} (${c.pick(Object.keys(CITIES))}): ${c.pick(['lunch set', 'dinner course', 'counter seats only', 'walk-in'])}, around ¥${(c.int(12, 90) * 100).toLocaleString('en-US')} per person, ${c.pick(['English menu', 'picture menu', 'Japanese only', 'tablet ordering'])}`
    )
  }
  return `Places people recommended to me:\n\n${rows.join('\n')}`
}

const tripTimetable = (c: Composer): string => {
  const [from, to] = c.pick([
    ['Kyoto', 'Kinosaki Onsen'],
    ['Shin-Osaka', 'Kii-Tanabe'],
    ['Kyoto', 'Tokyo'],
    ['Kii-Katsuura', 'Shin-Osaka'],
    ['Kyoto', 'Nara']
  ] as const)
  const rows: string[] = []
  let h = c.int(7, 10)
  let m = c.int(0, 5) * 10 + 2
  for (let i = 0, n = c.int(3, 5); i < n; i++) {
    const dur = c.int(45, 200)
    const arr = h * 60 + m + dur
    rows.push(
      `| ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} | ${String(Math.floor(arr / 60) % 24).padStart(2, '0')}:${String(arr % 60).padStart(2, '0')} | ${Math.floor(dur / 60)}h ${dur % 60}m | ${c.int(0, 2)} | ¥${(c.int(20, 140) * 100).toLocaleString('en-US')} |`
    )
    m += c.int(20, 55)
    if (m >= 60) {
      h += 1
      m -= 60
    }
  }
  return `I copied the options from the route planner for ${from} to ${to}:\n\n| Departs | Arrives | Time | Changes | Fare |\n|---|---|---|---|---|\n${rows.join('\n')}`
}

const tripHotels = (c: Composer): string => {
  const names = [
    'Hotel Sakura Terrace',
    'Minshuku Aoi',
    'Hotel Tsuki Station',
    'The Gate Kyoto Annex',
    'Kawabata Inn',
    'Hotel Nagomi',
    'Guesthouse Hinoki',
    'Riverside Hotel Kamo'
  ]
  const rows: string[] = []
  for (let i = 0, n = c.int(3, 5); i < n; i++) {
    rows.push(
      `- ${c.pick(names)}: ¥${(c.int(90, 420) * 100).toLocaleString('en-US')} a night, ${c.int(12, 28)} m², ${c.pick(['3 min', '6 min', '10 min', '15 min'])} to the station, rated ${(c.int(78, 94) / 10).toFixed(1)}, ${c.pick(['free cancellation', 'non-refundable', 'free cancellation until a week before', 'breakfast included'])}`
    )
  }
  return `Here's my shortlist so far:\n\n${rows.join('\n')}`
}

const tripCosts = (c: Composer): string => {
  const items = [
    ['Flights (two people)', 180, 420],
    ['Accommodation', 150, 380],
    ['Trains and buses', 40, 110],
    ['Food', 60, 160],
    ['Activities and entry fees', 15, 60],
    ['Buffer', 20, 60]
  ] as const
  return `Rough numbers as they stand:\n\n| Item | Estimate |\n|---|---|\n${items.map(([k, lo, hi]) => `| ${k} | ¥${(c.int(lo, hi) * 1000).toLocaleString('en-US')} |`).join('\n')}`
}

const trip: Domain = {
  name: 'trip-planning',
  seed: 0x7219a3,
  followups: 0.65,
  extraBlocks: 0.35,
  lex: {
    city: lines(`Kyoto
      Tokyo
      Osaka
      Kinosaki
      Nara`),
    sight: Object.values(CITIES).flat(),
    minutes: lines(`[[n:10-25:5]] minutes
      half an hour
      about an hour`),
    yen: lines(`¥[[n:1-9]],[[n:1-9]]00
      ¥[[n:12-48]],000`)
  },
  openers: [
    ...SHARED_OPENERS,
    ...lines(`
    Travel question, so the honest answer starts with "it depends on your pace".
    I'll answer with your route in mind rather than in general.
  `)
  ],
  closers: [
    ...SHARED_CLOSERS,
    ...lines(`
    Want me to fold this into the day-by-day plan?
    I can draft the booking order for this if that's useful.
  `)
  ],
  reactions: SHARED_REACTIONS,
  asides: lines(`
    Ros keeps saying we're overplanning, which is probably fair.
    We're both fine with walking a lot, to be clear.
    I'm keeping everything in one shared spreadsheet, for what it's worth.
    We tend to wake up early anyway, so early starts are fine.
    Neither of us speaks any Japanese beyond hello and thank you.
    My friend went last spring and said [[sight]] was the highlight.
    We'd rather see fewer things properly than rush around.
    I've been reading travel forums for two evenings straight and my head is spinning.
  `),
  generic: lines(`
    Leave some slack in the plan; the best moments are often unplanned.
    Early mornings are the single best trick for the popular places.
    Keep the addresses of your stays written in Japanese on your phone.
    Google Maps handles train connections in Japan very well, including platform numbers.
    Convenience stores are genuinely useful for cash, snacks, tickets and even printing.
    Rain is likely on at least a few days, so keep an indoor option for each city.
    Two people travelling light can change plans far more easily than with big suitcases.
    Most sights close earlier than you'd expect, often by five in the afternoon.
    A little politeness goes a long way: a bow and a thank you in Japanese are always appreciated.
    Don't try to see everything; you'll want a reason to come back.
    Write down which bookings are refundable and until when; it makes later changes painless.
    The distances look small on the map, but transfers always take longer than planned.
    Carry a small towel and hand sanitiser; not every bathroom has paper towels.
    Weekday visits to the famous places are noticeably calmer than weekends.
  `),
  interludes: [
    [
      'Silly question, but do we need plug adapters?',
      'Yes: Japan uses two-pin type A sockets at 100 volts. Phone and laptop chargers handle the voltage without trouble, so a simple adapter is enough. Hair dryers and straighteners from Europe usually do not.'
    ],
    [
      'Is it okay to wear shorts at temples?',
      "It's not forbidden, but covering knees and shoulders is more respectful and avoids the odd look. In October you'll probably want long trousers anyway. Shoes come off inside many halls, so socks without holes are the real dress code."
    ],
    [
      'How much Japanese should we learn before going?',
      "A handful of phrases goes a long way: hello, thank you, excuse me, and 'do you have an English menu'. Numbers up to ten help at markets. A translation app covers the rest, including menus through the camera."
    ],
    [
      'Do people really not eat while walking?',
      "It's considered a little impolite in most places, though food stalls and markets are an exception as long as you stand nearby. You'll notice people eating next to the stall or vending machine. Following that habit is easy and appreciated."
    ],
    [
      'Random thought: can we send postcards easily?',
      'Yes, post offices are everywhere and stamps for Europe are cheap. Some temples sell lovely postcards. Post boxes are red and have separate slots, the right one usually for international mail.'
    ]
  ],
  pastes: {
    route: [tripItinerary],
    flights: [tripFlights],
    stays: [tripHotels],
    food: [tripRestaurants],
    transport: [tripTimetable],
    hiking: [tripTimetable],
    family: [tripItinerary],
    budget: [tripCosts]
  },
  makers: {
    route: [tripItinerary],
    stays: [tripHotels],
    transport: [tripTimetable],
    food: [tripItinerary, tripRestaurants],
    hiking: [tripItinerary],
    family: [tripItinerary],
    budget: [tripCosts]
  },
  topics: [
    {
      name: 'route',
      asks: lines(`
        My partner and I are planning about two and a half weeks in Japan this October, our first time there. Where do we even start with the route? || Start with the shape rather than the list of places: fly into one city and out of another so you never backtrack. Osaka in and Tokyo out, or the reverse, works well because the rail line connects them with plenty of interesting stops in between. Then decide how many bases you want, because the number of hotel moves drives how tiring the trip feels.
        We're thinking Kyoto, Tokyo, somewhere with hot springs, and some hiking. Is that too much? || It's a good mix and not too much for two and a half weeks, as long as each stop gets at least three nights, except perhaps the hot spring town. Kyoto and Tokyo alone could absorb the whole trip, so be deliberate about what you leave out. The hike is the piece that needs the most logistics, so plan around it first.
        Which order makes the most sense? || Osaka or Kyoto first, then the hot spring town, then the Kii Peninsula for hiking, and Tokyo last. Ending in Tokyo means your last nights are in the most convenient city for an early flight and for last-minute shopping. It also puts the quieter, rural part in the middle, when you're over jet lag but not yet tired.
        How many nights would you give Kyoto? || Four nights is the sweet spot for a first visit: enough for the famous temples early in the morning, one slower neighbourhood day and a day trip to Nara. Three feels rushed, five starts to feel like you're hunting for things to see. If your mother joins you there, five might be right after all.
        Is October a good time to go? || Mostly yes: the summer heat has gone, the humidity is down and autumn colours start in the mountains towards the end of the month. Early October can still have typhoons, so keep a little flexibility in the first week. City foliage peaks later, in November, so don't plan around leaves in Kyoto.
        Should we do a day trip to Hiroshima and Miyajima? || It's worth it if history matters to you, but it's a long day from Kyoto: about two hours each way plus the ferry. An overnight in Miyajima is much more pleasant, because the island empties out in the evening. If it doesn't fit, don't force it; you'll have plenty to see.
        What about Nara? || Nara is an easy half day from Kyoto or Osaka: the big temple, the park and the deer. Go early, before the tour groups, and skip the crowded deer-cracker area after lunch. A late afternoon walk up to the hillside halls is lovely and quieter.
        How do we avoid burning out with so much to see? || Plan one big thing per day and leave the afternoons loose. Build in a true rest day every five or six days, ideally at the hot spring stop. Jet lag plus early temple starts plus long walks add up faster than people expect.
      `),
      says: lines(`
      Fewer bases with longer stays beat a new hotel every night.
      Kyoto rewards slow days more than any other city on your list.
      Plan each day around one anchor, like [[sight]], and let the rest fill in.
      Travel days should be short or scenic; never both long and dull.
      Keep the hiking days away from the first and last days of the trip.
      Grouping sights by neighbourhood saves hours of transit.
      A good rhythm is two active days followed by one lighter day.
      Put the things you care about most early in the trip, in case weather moves things around.
      [[sight]] is best first thing in the morning, before the groups arrive.
    `)
    },
    {
      name: 'flights',
      asks: lines(`
        Flights: we're flying from Berlin. Is it better to fly into Osaka or Tokyo? || Osaka's Kansai airport suits your route: it's an easy train ride into Kyoto, and you can leave from Tokyo at the end. Open-jaw tickets on one booking usually cost about the same as a return. Check the connection time if you change in Helsinki or Frankfurt; an hour is tight on the way out.
        What's the easiest way from Kansai airport to Kyoto after a long flight? || The airport express train runs straight to Kyoto station in a little over an hour, with luggage space and reserved seats. Buy the ticket at the counter in the airport station, where staff speak English. If you land late at night, check the last departure before you decide.
        How do we deal with jet lag on arrival? || Get outside in daylight on the first morning, eat at local times and keep the first day light. A short walk and an early dinner beat a packed itinerary. Most people from Europe feel normal by the third day going east.
        Should we pay extra for better seats on a flight that long? || Premium economy is often worth it on a twelve-hour flight if the price gap is modest, mainly for legroom and a quieter cabin. If the gap is large, spend the money on a better ryokan instead. Book seats early either way; pairs of seats go first.
        Our return is from Haneda. How early do we need to be there? || Two to two and a half hours before an international departure is comfortable. Haneda is efficient, but security queues vary and you'll want time for the tax-free refund if you shopped. From central Tokyo it's under an hour by monorail or train.
        Do we need anything special at immigration now? || Fill in the online arrival form before you fly and keep the QR codes on your phone; it speeds things up considerably. Have your first hotel's address handy. Passports need to be valid for the whole stay.
        What if a flight gets cancelled by a typhoon? || Airlines rebook for free when a typhoon cancels flights, but you may lose a day. Keep the first night's hotel flexible and make sure your insurance covers missed connections. Don't book anything non-refundable for the first two days.
        Is it worth joining the airline's loyalty programme for one trip? || It costs nothing and sometimes helps with rebooking priority or seat selection, so yes. Add the number to the booking now rather than at check-in. Don't choose flights based on it, though.
      `),
      says: lines(`
      Airline rebooking is smoother if you booked directly rather than through a travel agency site.
      A window seat on the right side flying into Kansai sometimes gives a view of the bay at sunrise.
      Keep essentials and a change of clothes in your carry-on in case a bag goes astray.
      Evening arrivals are easier for jet lag: you sleep, then start fresh.
      Check the baggage allowance on each leg; connecting airlines sometimes differ.
      Download the airline's app for gate changes and rebooking.
      Arriving on a weekday avoids the longest queues at the airport station.
      Keep some yen for the first day, even though cards work at the airport.
    `)
    },
    {
      name: 'stays',
      asks: lines(`
        Let's talk hotels. What kind of place should we book in Tokyo? || A mid-range hotel near a major station on the Yamanote line makes everything easier: Ginza, Tokyo station, Shinjuku or Ueno. Rooms are small, so check the square metres, not just the photos. Being near a station matters more than being near a specific sight.
        Is a ryokan worth the price for one night? || Yes, for one or two nights: the kaiseki dinner, the baths and the quiet are a big part of the experience. Book one with a private bath if you're shy about shared baths. Dinner times are fixed, so arrive by late afternoon.
        Which hot spring town would you pick? || Kinosaki is wonderful for a first ryokan stay: a canal town where you walk between seven public baths in a yukata. It's reachable from Kyoto in about two and a half hours. Arima is closer to Osaka but feels more like a resort.
        What about Kyoto: hotel or one of those traditional townhouses? || A renovated townhouse is lovely for four nights: you get space, a small garden and the feel of a neighbourhood. Check how the entry works, because many have no front desk. If your mother joins, make sure there's a bedroom without a steep staircase.
        How far ahead do we need to book? || For October, book the ryokan and anything special now; they sell out first. City hotels can wait a little but prices rise. Choose refundable rates where possible until the route is fixed.
        Any tips on reading reviews of Japanese hotels? || Look at recent reviews from travellers like you, and pay attention to comments about room size, noise and distance to the station. A rating of eight on Japanese sites often means very good. Photos of the actual bathroom tell you more than lobby photos.
        Do hotels store luggage if we arrive early? || Almost always, both before check-in and after check-out, usually for free. That makes arrival days and departure days much more usable. Just ask at the front desk.
        Is it rude to ask for two beds instead of one? || Not at all: twin rooms are common and often the default. Just be explicit when booking, because double rooms can be quite narrow. For a ryokan, futons are laid out for you anyway.
      `),
      says: lines(`
      Check-in is usually at three in the afternoon and check-out at ten or eleven.
      Rooms near the lift can be noisy; ask for a quieter room when you arrive.
      Many hotels offer a coin laundry, which lets you pack for a week instead of three.
      Ryokan prices are per person and usually include dinner and breakfast.
      A station-side hotel saves at least [[minutes]] on every travel day.
      Townhouse rentals often have steep stairs, so check the floor plan.
      Some small hotels lock the entrance late at night; check the code or curfew.
      Free cancellation rates are worth a small premium while your plans are still moving.
    `)
    },
    {
      name: 'transport',
      asks: lines(`
        How do we get around between cities: passes, individual tickets, something else? || Compare the pass price with your actual journeys, because after the big price increase passes rarely pay off for a one-way route like yours. For most itineraries, individual bullet train tickets plus rechargeable cards for local transport come out cheaper. Buy long-distance tickets a day or two ahead for reserved seats.
        How do local trains and buses work in Kyoto? || Kyoto's buses cover everything but get crowded; the subway and the private railways are faster for longer hops. A rechargeable card works on both, and you just tap in and out. For Arashiyama and Fushimi, trains are much better than buses.
        Should we rent a car anywhere? || Only on the Kii Peninsula, if at all: the hiking trailheads and onsen villages are spread out, and buses are infrequent. Everywhere else a car is a burden. You'll need an international driving permit issued at home before you leave.
        Is it easy to take luggage on the bullet train? || Medium suitcases fit overhead or behind the last row; large ones need a reserved oversized-baggage seat. Travelling light makes everything easier. Forwarding a suitcase to your next hotel is cheap and reliable.
        How do we get from Kinosaki down to the Kii Peninsula? || It's a long travel day: back through Kyoto or Osaka, then the limited express south to Kii-Tanabe. Expect five to six hours door to door. Break it with lunch in Osaka if you like.
        Are taxis expensive? || Short rides are reasonable, especially for two or three people, and they are spotless and honest. Drivers rarely speak much English, so show the address in Japanese. Apps work in the big cities.
        Any etiquette on trains we should know? || Keep phone calls off, speak quietly, queue at the marked spots on the platform and don't eat on local commuter trains. Eating on long-distance trains is fine and even a pleasure. Give up priority seats to people who need them.
        What about getting around Tokyo? || The subway and the Yamanote line cover nearly everything; a rechargeable card on your phone is easiest. Avoid the morning rush if you can. Walking between neighbouring districts is often faster than changing lines.
      `),
      says: lines(`
      Reserved seats on the bullet train cost a little more and are worth it in autumn.
      Trains leave exactly on time, so be on the platform a few minutes early.
      Station staff are very helpful; show them your destination written down.
      Coin lockers at stations take most medium bags and are a lifesaver between check-out and departure.
      Rural buses often need exact change or a card, and drivers can't always break large notes.
      The route planner's "avoid transfers" option makes travel days much calmer.
      Luggage forwarding usually arrives the next day, so pack an overnight bag.
      Taxis can be hailed on the street in cities; a red light in the window means free.
    `)
    },
    {
      name: 'food',
      asks: lines(`
        Food is a big deal for us. How do we eat well without spending a fortune? || Lunch sets are the secret: many excellent restaurants offer lunch for a fraction of their dinner price. Department store food halls and good convenience stores cover breakfast and snacks. Save the big money for one or two special dinners.
        Do we need reservations for restaurants? || For well-known places, yes, often weeks ahead, and some only accept bookings through a hotel concierge or a booking site. Everyday places, ramen shops, izakaya, udon counters, take walk-ins. Arrive right at opening to avoid queues.
        What should we absolutely try in Kyoto? || Kyoto-style tofu dishes, a shojin vegetarian meal at a temple, matcha sweets in Uji and a simple obanzai home-style dinner. A kaiseki meal in Kyoto is a special experience if you budget for one. Nishiki Market is fun but crowded; go before ten.
        How do food allergies work in Japan? || Carry a card in Japanese that explains the allergy precisely, including broths and sauces, because fish and crustacean extracts hide in many dishes. Staff will usually do their best, but cross-contamination is common in small kitchens. Ryokan can adapt kaiseki dinners if you tell them well in advance.
        Is tipping expected? || No, and it can even cause confusion. Good service is simply the norm. A sincere thank you on leaving is plenty.
        What's an izakaya like, and how do we order? || It's a casual pub with lots of small plates; you order a few dishes at a time and keep adding. Many have picture menus or tablets with English. There may be a small table charge with a snack, which is normal.
        Any good food experiences in Tokyo? || A morning at one of the fish markets, a depachika food hall, a yakitori alley in the evening and a proper tempura counter lunch. Tokyo has more of everything, so pick neighbourhoods rather than specific restaurants. Queue for ramen at off-peak times.
        What about breakfast if our hotel doesn't include it? || Bakeries and coffee shops open early, and a convenience store onigiri with coffee is a perfectly respectable breakfast. Many cafés offer a morning set with toast, egg and salad. Ryokan breakfasts are a highlight, so don't skip those.
      `),
      says: lines(`
      Picture menus and plastic food displays make ordering easier than you fear.
      Queues at a restaurant are a good sign; locals queue for good food.
      Many small places close between lunch and dinner, roughly from two to five.
      Vending machine ticket shops are common for ramen and udon; you pay first and hand over the ticket.
      Seasonal autumn dishes feature chestnuts, mushrooms and sweet potato.
      A set lunch near [[sight]] will cost far less than dinner at the same place.
      Department store restaurant floors are reliable when you're tired and hungry.
      Sake tastings at small breweries are a lovely afternoon activity.
    `)
    },
    {
      name: 'hiking',
      asks: lines(`
        Tell me about the Kumano Kodo. Is it realistic for reasonably fit but not hardcore hikers? || Yes, the classic Nakahechi route is well marked and can be walked in short sections with buses back to your lodging. The hardest part is the steep climb at the start; after that it's steady forest walking. Two or three days of walking is plenty for a first visit.
        Which section would you walk if we only have two days? || Walk the first section into the mountains on day one, stay in a guesthouse along the way, and walk to the grand shrine on day two. That gives you the forest, the small villages and the arrival at the shrine. Buses connect the ends if your legs give up.
        Do we need to carry all our luggage on the trail? || No, luggage forwarding along the route is a well-organised service. Leave your suitcase at the start and it will be waiting at your next lodging. Carry just a daypack with water, rain gear and snacks.
        What should we pack for the hike? || Broken-in shoes with grip, a light rain jacket, a warm layer, a hat, water for the whole day and cash. Trekking poles help on the steep stone steps. There are few shops on the trail, so bring lunch.
        Where do people stay along the trail? || Family-run guesthouses with dinner and breakfast included; they fill up early in autumn. The official booking centre for the area handles most of them. Some are remote, so confirm how you get there from the trailhead.
        Is there anything to see at the end of the trail? || The grand shrine at Hongu, the huge torii gate on the old shrine site, and the hot springs nearby, including the one where you dig your own bath in the river. A soak after two days of walking is exactly right. The river bath is free.
        What if it rains? || It often does, and the forest is beautiful in the rain, but the stone steps get slippery. Walk slower, use poles and avoid the steepest descents if it pours. If there's a typhoon warning, stay put; the buses stop too.
        Do we need a guide? || Not for the main route; it's well signposted in English. A guide adds stories and context, which some people love. If you go on your own, download the official map to your phone.
      `),
      says: lines(`
      Start early on walking days so you're not rushing before dark; it gets dark around half past five in October.
      The trail has rest huts and water stops, but not all of them have drinking water.
      Watch for wild boar warnings; they are shy but don't approach them.
      Stamp stations along the route are a fun way to mark progress.
      The stone steps are uneven; look down on descents and up at the rest stops.
      Guesthouse dinners on the trail are hearty, and you'll be hungry.
      Buses back from the trail ends run a few times a day, so note the last one.
      A small first aid kit with blister plasters is the most useful thing in your pack.
    `)
    },
    {
      name: 'family',
      asks: lines(`
        My mother wants to join us in Kyoto for a few days. She's seventy-four and doesn't walk long distances. How do we adapt? || Plan shorter outings with taxis between sights, and put the hillside temples with long stairways on days she rests. Many gardens and temples in the city centre are flat. A townhouse or hotel close to a bus and taxi stand makes a big difference.
        Which Kyoto sights are easiest for someone with limited mobility? || The Golden Pavilion, the Nishiki area, the Imperial Palace grounds and many central gardens are flat or have short paths. Avoid the full climb at Fushimi Inari; the lower gates are lovely anyway. Arashiyama's bamboo grove is flat but crowded, so go early.
        Should she fly separately or with us? || Separately is fine if she's comfortable travelling alone; plenty of people do. Meet her at Kyoto station or arrange a pickup from the airport. Airlines offer assistance at connections if she asks when booking.
        How do we split time so she doesn't feel like a burden? || Plan a couple of things with her, leave her some quiet mornings, and do one early outing on your own. Ask her what she most wants to see rather than guessing. A shared special dinner gives the visit a focal point.
        Any tips for staying connected with her while we're apart during the day? || Set up a messaging app on her phone with a local data plan, and agree on a meeting point each afternoon. Save the hotel address in Japanese on her phone. A taxi driver can take her home from anywhere.
        What's good for a rainy day with her? || Museums, covered shopping streets, a tea ceremony, a cooking class or a slow afternoon in a café with a garden view. Kyoto's covered arcades make rain easy. The national museum is excellent and fully accessible.
        Do temples have seating and toilets? || Most larger temples have benches and clean toilets, often free. Smaller temples may have neither. Plan rest stops around cafés near each sight.
        How does she get back to the airport on her own? || The airport limousine bus from near Kyoto station or the express train both work; the bus has luggage help and fewer stairs. Book the bus seat a day ahead. Allow plenty of time.
      `),
      says: lines(`
      Taxis are the best way to connect sights for someone who tires easily.
      Most museums have lifts and accessible toilets.
      Temple grounds often have gravel, which is tiring to walk on; plan short visits.
      A relaxed lunch in the middle of the day helps everyone keep their energy.
      Let her set the pace; you can always add things for yourselves later.
      [[sight]] is manageable if you go slowly and skip the steeper part.
      A folding seat stick can be a big help in queues and gardens.
      Agree on a simple plan for each day the evening before.
    `)
    },
    {
      name: 'budget',
      asks: lines(`
        Let's go through the budget properly. What are the big categories? || Flights, accommodation, long-distance transport, food, activities and a buffer. Accommodation and flights usually make up about half. Put the buffer in explicitly, ten percent or so, so that surprises don't come out of your food budget.
        How much should we plan per day for food? || For two people eating well but not lavishly, plan a moderate amount per day and more on special dinners. Lunch sets and convenience store breakfasts keep it low. Track spending for the first three days and adjust.
        Do we need a lot of cash? || Less than before, but still some: small restaurants, temples, buses in the countryside and guesthouses on the trail often take cash only. Withdraw from convenience store ATMs, which accept foreign cards. Keep a coin purse; you'll collect a lot of coins.
        Which cards work best? || A card without foreign transaction fees, plus a backup from a different network. Visa and Mastercard are widely accepted in cities. Tell your bank you're travelling if they still require it.
        What about insurance: is it worth it? || Yes, particularly for medical costs, cancellations and typhoon disruptions. Check whether it covers hiking and the rental car. Keep the emergency number on paper as well as on your phone.
        How do we handle mobile data? || An eSIM bought before you leave is the easiest: install it at home and activate it on landing. Pocket wifi devices work too but are one more thing to carry and charge. You'll use data constantly for maps and translation.
        What should we pack that people usually forget? || Slip-on shoes for temples and ryokan, a small towel, a coin purse, a plastic bag for rubbish since bins are rare, and any medicine with its prescription. Pack light enough to carry your bag up station stairs. Laundry is easy in most hotels.
        Can you help me make a final checklist for the last week before we leave? || Confirm every booking, print the key addresses in Japanese, install and test the eSIM, order some yen, check passports and insurance, and share the itinerary with someone at home. Pre-book the airport train if it saves stress. Then stop planning and let the trip happen.
      `),
      says: lines(`
      Track spending in one place from day one, even roughly.
      Japan is more affordable than its reputation, except for hotels in peak weeks.
      Tax-free shopping needs your passport at the till, and purchases over a threshold qualify.
      The biggest savings come from lunch sets and staying near stations rather than from cheaper hotels.
      Keep an eye on the exchange rate; paying in yen on cards usually beats the card terminal's conversion.
      Entrance fees are modest, usually a few hundred yen per temple.
      A small daily allowance for snacks and coffee avoids guilt and spreadsheet anxiety.
      Set aside the buffer in a separate pot so you can see when you dip into it.
    `)
    }
  ],
  facts: [
    {
      fact: 'Rosalind is allergic to shellfish',
      keywords: ['shellfish'],
      topic: 0,
      turn: 1,
      text: 'Important: my partner Rosalind is seriously allergic to shellfish, so anything with shrimp or crab is out, including broths.',
      ack: "That matters for food planning everywhere, and especially at the ryokan; I'll keep it in mind for every meal suggestion."
    },
    {
      fact: 'no more than two hotel changes per week',
      keywords: ['two hotel changes'],
      topic: 0,
      turn: 3,
      text: 'Our rule: no more than two hotel changes per week, we hate packing.',
      ack: 'That rule fits the route well if each base gets three or four nights.'
    },
    {
      fact: 'the total budget is ¥680,000',
      keywords: ['¥680,000'],
      topic: 0,
      turn: 6,
      text: "Our total budget, excluding flights, is ¥680,000 for both of us, and we'd like to stay under it without being miserable.",
      ack: "That's a comfortable budget for mid-range travel if you pick your splurges."
    },
    {
      fact: 'the outbound flight is AY079 landing at Kansai',
      keywords: ['AY079'],
      topic: 1,
      turn: 0,
      text: "We're on AY079 via Helsinki, landing at Kansai in the morning.",
      ack: 'A morning landing gives you a full first day, but keep it very light.'
    },
    {
      fact: 'the flight booking reference is HX-4471',
      keywords: ['HX-4471'],
      topic: 1,
      turn: 3,
      text: 'The booking reference for the flights is HX-4471, in case I need it later.',
      ack: "Noted; keep a copy offline too, it's the first thing the airline asks for when rebooking."
    },
    {
      fact: 'the return flight leaves Haneda at 11:40 on the 19th',
      keywords: ['11:40'],
      topic: 1,
      turn: 4,
      text: 'The return leaves Haneda at 11:40 on the 19th.',
      ack: 'A late-morning departure is civilised: no need for a hotel at the airport.',
      refs: [
        'For the last night, remember how early we have to leave for the airport given our departure time. Does that change which Tokyo area is best?'
      ]
    },
    {
      fact: 'the Tokyo hotel is Hotel Kuzuha Ginza',
      keywords: ['Kuzuha'],
      topic: 2,
      turn: 0,
      text: "We've already booked the Tokyo part: Hotel Kuzuha Ginza for the last four nights.",
      ack: 'Ginza is a very convenient base, close to Tokyo station for the airport run.'
    },
    {
      fact: 'the ryokan is Yumeya Hanare in Kinosaki',
      keywords: ['Yumeya Hanare'],
      topic: 2,
      turn: 2,
      text: 'We found a ryokan called Yumeya Hanare in Kinosaki with a private outdoor bath, and we booked it for two nights.',
      ack: 'Two nights there is a lovely pause in the middle of the trip.',
      refs: ['Also, should I call the ryokan in Kinosaki about the allergy, or will email do?']
    },
    {
      fact: 'the Kyoto townhouse is called Sagi-an',
      keywords: ['Sagi-an'],
      topic: 2,
      turn: 3,
      text: 'In Kyoto we booked a townhouse called Sagi-an near the Kamo river, five nights, two bedrooms.',
      ack: 'Two bedrooms by the river sounds ideal, particularly if your mother joins.'
    },
    {
      fact: 'they decided against a rail pass and will use ICOCA cards',
      keywords: ['ICOCA'],
      topic: 3,
      turn: 0,
      text: "We decided: no rail pass. We'll get ICOCA cards on our phones and buy the bullet train tickets separately.",
      ack: 'For your route that is the cheaper and more flexible choice.'
    },
    {
      fact: 'the rental car reservation number is 88213',
      keywords: ['88213'],
      topic: 3,
      turn: 2,
      text: 'I reserved a small car in Tanabe for three days, reservation number 88213.',
      ack: 'Good; remember the international driving permit, they will not hand over the car without it.'
    },
    {
      fact: 'Rosalind gets motion sick on buses',
      keywords: ['motion sick'],
      topic: 3,
      turn: 4,
      text: 'One more constraint: Ros gets motion sick on winding bus rides, so trains wherever possible.',
      ack: 'Then the mountain buses are worth avoiding where a train or a short taxi ride exists.'
    },
    {
      fact: "Rosalind's birthday dinner is at Sakaguchi-tei",
      keywords: ['Sakaguchi-tei'],
      topic: 4,
      turn: 1,
      text: "Ros's birthday falls on the trip, the 11th, and I booked a kaiseki dinner at Sakaguchi-tei as a surprise.",
      ack: 'What a lovely surprise; make sure they know about the allergy when you confirm.'
    },
    {
      fact: "the user doesn't eat raw egg",
      keywords: ['raw egg'],
      topic: 4,
      turn: 4,
      text: "Small thing about me: I can't stand raw egg, which I gather is on a lot of rice dishes.",
      ack: "Easy enough to avoid once you know where it hides: it's mostly on rice bowls and in sukiyaki dips."
    },
    {
      fact: 'the hike starts at Takijiri-oji',
      keywords: ['Takijiri'],
      topic: 5,
      turn: 1,
      text: "We'll start walking at Takijiri-oji on the morning of day nine.",
      ack: "That's the classic start, and the steep first climb is best done fresh in the morning."
    },
    {
      fact: 'luggage is forwarded with Yamato',
      keywords: ['Yamato'],
      topic: 5,
      turn: 2,
      text: 'The hotel in Tanabe said they can send our suitcases ahead with Yamato, so we only carry daypacks.',
      ack: 'That makes the walking days far more pleasant.'
    },
    {
      fact: 'the trail guesthouse is Kiri-no-Sato',
      keywords: ['Kiri-no-Sato'],
      topic: 5,
      turn: 4,
      text: 'We got the last room at a guesthouse called Kiri-no-Sato for the night on the trail.',
      ack: 'Lucky; the trail guesthouses fill up fast in October.'
    },
    {
      fact: "the user's mother is Helga",
      keywords: ['Helga'],
      topic: 6,
      turn: 0,
      text: "Her name is Helga, by the way, and she is very independent, she just can't do long stairs.",
      ack: 'Independent but careful with stairs is easy to plan for.'
    },
    {
      fact: 'travel insurance is with Brightwater Mutual',
      keywords: ['Brightwater'],
      topic: 7,
      turn: 4,
      text: "We're insured with Brightwater Mutual through my credit card, policy covers medical and cancellations.",
      ack: 'Check that their cover includes the hiking and the rental car; card policies often exclude one of them.'
    },
    {
      fact: 'they use an Ubigi eSIM',
      keywords: ['Ubigi'],
      topic: 7,
      turn: 5,
      text: 'We went with an Ubigi eSIM with 20 GB each.',
      ack: 'Twenty gigabytes each is plenty for maps and translation.'
    },
    {
      fact: 'the camera is a Ricoh GR III',
      keywords: ['Ricoh'],
      topic: 7,
      turn: 6,
      text: "I'm only bringing my Ricoh GR III, no big camera this time.",
      ack: 'A pocket camera is perfect for temples and trails.'
    }
  ]
}

// ---------------------------------------------------------------- research reading

const AUTHORS = [
  'Moreau',
  'Tanaka',
  'Okafor',
  'Bergström',
  'Castellano',
  'Whitfield',
  'Nakamura',
  'Dubois',
  'Kowalczyk',
  'Abernathy',
  'Sørensen',
  'Ferreira',
  'Haddad',
  'Lundqvist-Berg',
  'Osei'
]
const PLACES = [
  'Paris',
  'Madrid',
  'Seoul',
  'Chicago',
  'Melbourne',
  'Athens',
  'Montreal',
  'Stuttgart',
  'Barcelona',
  'Osaka',
  'Vienna',
  'Lyon'
]

const resStudy = (c: Composer) => `${c.pick(AUTHORS)} et al. (${c.int(2008, 2024)})`

const resNotes = (c: Composer): string => {
  const design = c.pick(['time-series', 'case-crossover', 'cross-sectional', 'cohort', 'spatial regression'])
  return `My notes on ${resStudy(c)}, in case they help:\n\n- Setting: ${c.pick(PLACES)}, summers ${c.int(2003, 2012)}–${c.int(2014, 2022)}\n- Design: ${design}, ${c.pick(['daily admissions', 'daily deaths', 'ambulance calls', 'GP visits'])} among ${c.pick(['people over 65', 'all ages', 'children under 5', 'outdoor workers'])}\n- Exposure: ${c.pick(['station air temperature', 'land surface temperature', 'apparent temperature', 'reanalysis air temperature'])}\n- Main result: ${c.int(2, 9)}.${c.int(0, 9)}% more ${c.pick(['admissions', 'deaths', 'calls'])} per degree above the ${c.int(75, 95)}th percentile\n- Weakness: ${c.pick(['no adjustment for ozone', 'very short study period', 'exposure assigned at city level', 'small number of events', 'unclear lag choice'])}`
}

const resModel = (c: Composer): string => {
  const coef = (lo: number, hi: number) => (c.int(lo, hi) / 1000).toFixed(3)
  return `Here's the model output:\n\n\`\`\`\n                    Estimate Std. Error z value Pr(>|z|)\n(Intercept)           ${coef(1000, 3000)}     ${coef(20, 90)}   ${c.int(20, 60)}.${c.int(10, 99)}  < 2e-16\nheat_day              ${coef(5, 60)}     ${coef(5, 30)}    ${c.int(0, 4)}.${c.int(10, 99)}   0.${c.int(1, 300)}\ncanopy_pct           -${coef(1, 9)}     ${coef(1, 5)}   -${c.int(0, 3)}.${c.int(10, 99)}   0.${c.int(1, 600)}\nheat_day:canopy_pct  -${coef(0, 4)}     ${coef(1, 4)}   -${c.int(0, 2)}.${c.int(10, 99)}   0.${c.int(100, 900)}\ndeprivation_q5        ${coef(20, 120)}     ${coef(10, 40)}    ${c.int(1, 5)}.${c.int(10, 99)}   0.0${c.int(1, 90)}\n\`\`\``
}

const resTable = (c: Composer): string => {
  const rows: string[] = []
  for (let i = 0, n = c.int(3, 5); i < n; i++) {
    rows.push(
      `| ${resStudy(c)} | ${c.pick(PLACES)} | ${c.pick(['time-series', 'case-crossover', 'spatial'])} | ${c.int(3, 60) * 100} | ${(1 + c.int(5, 60) / 1000).toFixed(3)} |`
    )
  }
  return `| Study | City | Design | Events | RR per °C |\n|---|---|---|---:|---:|\n${rows.join('\n')}`
}

const resOutline = (c: Composer): string => {
  const sections = c.pick([
    ['Why heat matters for health', 'Who is most exposed', 'How exposure is measured', 'The gap this thesis addresses'],
    ['Data sources', 'Exposure assignment', 'Statistical model', 'Sensitivity analyses'],
    ['Main effect of heat days', 'Differences between neighbourhoods', 'Role of tree canopy', 'Robustness'],
    [
      'Summary of findings',
      'Comparison with earlier studies',
      'Strengths and limitations',
      'Implications for heat action plans'
    ]
  ])
  return sections
    .map((t, i) => `${i + 1}. ${t}${c.chance(0.5) ? ` (about ${c.int(3, 12) * 100} words)` : ''}`)
    .join('\n')
}

const research: Domain = {
  name: 'research-reading',
  seed: 0x4e5a11,
  followups: 0.85,
  extraBlocks: 0.8,
  lex: {
    study: AUTHORS.map((a) => `${a} et al.`),
    place: PLACES
  },
  openers: [
    ...SHARED_OPENERS,
    ...lines(`
    Methodologically, the honest answer has two parts.
    This comes up in almost every thesis in this area.
  `)
  ],
  closers: [
    ...SHARED_CLOSERS,
    ...lines(`
    Want me to sketch how this would read in your methods section?
    If you paste the relevant paragraph, I can comment on the wording.
  `)
  ],
  reactions: SHARED_REACTIONS,
  asides: lines(`
    My advisor is travelling a lot this term, so I'm trying to be self-sufficient.
    I'm reading mostly on the train, so short answers are welcome too.
    I had a similar discussion in the reading group last week.
    Honestly, statistics is my weak spot.
    I liked the way [[study]] framed this, for what it's worth.
    A friend who did her thesis on air pollution recommended this approach.
    I keep a reading log in a spreadsheet, with one row per paper.
    I'm a bit behind my own schedule, which doesn't help my mood.
  `),
  generic: lines(`
    Write down the decision and the reason in your methods log today; you won't remember the reason in three months.
    Examiners reward clarity more than sophistication.
    It's better to do one analysis well than three superficially.
    Keep the research question in front of you when deciding what to read next.
    A good figure is worth a page of text in this field.
    Being explicit about limitations makes your conclusions more credible, not less.
    Ask your advisor early when something is unclear; small confusions grow.
    If two sources disagree, go back to how each one measured exposure.
    Your future self will thank you for scripts that run from raw data to figures in one go.
    The literature moves fast, so note the date you searched databases.
    Don't let perfect be the enemy of a submitted thesis.
    Reading widely is good, but the thesis needs a narrow spine.
    Use the same terminology throughout; switching between synonyms confuses readers.
    A short weekly progress note to yourself helps you see how far you've come.
  `),
  interludes: [
    [
      'Unrelated, but how do you deal with reading fatigue?',
      'Switch modes: read a methods section, then sketch a figure, then write a paragraph. Short breaks every forty minutes help more than pushing through. And reading on paper, for the important papers, really does improve retention for many people.'
    ],
    [
      'Quick question: is it okay to cite a preprint?',
      'Yes, as long as you mark it as a preprint and check whether a peer-reviewed version has appeared since. Be a little more cautious about its conclusions. For key claims, prefer published sources when they exist.'
    ],
    [
      'Do you think I should present at the student conference in spring?',
      'If you have preliminary results by then, yes: a short talk forces you to find the story in your data, and the questions are useful. It also looks good on a CV. Keep the slides simple and focus on one result.'
    ],
    [
      'How do people keep track of all the PDFs?',
      'A reference manager with a watched folder, consistent file names generated automatically, and tags by theme. Resist downloading everything; only save what you have at least skimmed. Back up the library like any other work.'
    ],
    [
      'Sorry, off topic: any advice for a first meeting with a new co-supervisor?',
      'Bring a one-page summary of the project, your timeline and two or three concrete questions. Ask how they prefer to give feedback and how often they want updates. Agree on the next step before you leave.'
    ]
  ],
  pastes: {
    reading: [resNotes],
    methods: [resNotes],
    data: [resModel],
    results: [resModel, resNotes],
    writing: [(c) => `Draft outline for the chapter:\n\n${resOutline(c)}`],
    question: [(c) => `These are the papers I've collected so far:\n\n${resTable(c)}`],
    defence: [(c) => `My slide plan:\n\n${resOutline(c)}`]
  },
  makers: {
    question: [resOutline],
    reading: [resTable],
    methods: [resTable],
    results: [resTable],
    writing: [resOutline],
    defence: [resOutline]
  },
  topics: [
    {
      name: 'question',
      asks: lines(`
        I'm starting my master's thesis on urban heat islands and health, and I'd like to use you as a sparring partner for the reading. Can we start by narrowing the question? || Gladly. The field is broad, so the first cut is usually between the physical side, how cities get hotter, and the health side, who suffers and why. Your question becomes manageable once you pick an outcome, a population and a mechanism. Something like heat exposure and hospital admissions among older adults is a thesis; "heat and health" is a library.
        I'm most interested in who is exposed rather than in the physics. Does that make sense as a focus? || It does, and it's where a lot of current work is going: the same heat wave affects neighbourhoods very differently. Exposure depends on surface temperature, but also on housing quality, tree cover, work outdoors and social isolation. Framing it around unequal exposure also makes your policy chapter more natural.
        How do I know whether a question is too big for a master's thesis? || Ask whether you could answer it with one dataset and one main analysis in about four months of work. If answering requires new data collection in several cities, it's too big. A good sign is that you can already sketch the main figure.
        Should my thesis be a literature review or an empirical study? || An empirical study with a focused literature review is usually more satisfying, and examiners like to see you handle data. A pure review is fine if it's systematic and you have a clear protocol. Given your interest in exposure, a modest empirical analysis seems within reach.
        How do I write a research question that's specific enough? || Name the exposure, the outcome, the population, the place and the time period. For example: is neighbourhood land surface temperature during heat waves associated with emergency admissions among people over 65 in one city between two given years. Then check that each part maps to a variable you can actually get.
        What's the difference between a research question and a hypothesis here? || The question states what you want to know; the hypothesis states what you expect and can be tested. You might ask whether greener neighbourhoods see smaller increases in admissions during heat, and hypothesise that the increase is smaller where tree canopy is higher. Write both down; the hypothesis keeps the analysis honest.
        Is it okay that my question is similar to existing papers? || Yes, replication in a new place or with better data is a legitimate contribution, especially at master's level. What matters is that you say clearly what is new: the city, the period, the measure of exposure or the population. Examiners want to see that you know the existing work.
        How much should I read before I start writing? || Less than you think. Read the key reviews and the ten or fifteen most cited studies closely, then start writing the literature section while you continue reading. Writing reveals the gaps in your understanding faster than more reading does.
      `),
      says: lines(`
      A narrow question is not a small question; it's an answerable one.
      Heat exposure research increasingly looks at inequality rather than averages.
      The population you choose determines which data you need, so decide it early.
      Older adults are the classic focus because the physiological evidence is strongest.
      Your city choice matters: it needs enough hot days to study and accessible health data.
      A question that excites you will carry you through the boring months of data cleaning.
      Reviewers of theses often ask "so what?", so think about the policy angle from the start.
      [[study]] is a good example of a tightly framed question in this area.
    `)
    },
    {
      name: 'reading',
      asks: lines(`
        Which kinds of papers should I read first? || Start with two or three recent review articles; they map the field and point to the key studies. Then read the most cited empirical papers in full, and skim the rest by abstract and figures. Keep a reading log from day one.
        How do I read a paper efficiently without missing the important parts? || Read the abstract, then the figures and tables, then the discussion, and only then the methods in detail if the paper matters for you. Ask what was measured, in whom, and how the authors dealt with confounding. Write three sentences in your own words right after reading.
        How should I organise my notes? || One note per paper with the same headings: question, data, method, main result, limitations, and what it means for your thesis. Tag notes by theme so you can pull them together for each section. A reference manager that links notes to PDFs saves time later.
        There's a lot of disagreement between studies. How do I deal with that? || Disagreement is material, not a problem. Tabulate the studies by design, place, exposure measure and outcome, and see whether the differences line up with those features. Often the conflict dissolves once you notice they measure different things.
        How do I judge the quality of a study quickly? || Look at the design, the sample size, how exposure was measured, whether key confounders were adjusted for, and whether the effect size is plausible. Be wary of striking results from small samples. Check whether the authors discuss their own limitations honestly.
        What do I do with papers I can't access? || Your university library can usually get them through interlibrary loan, and many authors share preprints on their pages or respond kindly to a short email. Repositories often have accepted manuscripts. Don't cite what you haven't read; cite the source you did read.
        How many papers should end up in the bibliography? || Quality over quantity: for a master's thesis, somewhere between forty and eighty sources is common, depending on the field. Every citation should do work in your argument. Padding is easy to spot.
        Should I use a reference manager? || Yes, set one up now. It handles the citation style automatically and saves days at the end. Keep the library tidy: consistent tags, complete metadata and PDFs attached.
      `),
      says: lines(`
      Review articles save weeks of searching; follow their references backwards.
      Citation tracking forwards, who cited this paper since, finds the newest work.
      Reading the limitations section first is a good habit for quick quality checks.
      Keep a separate list of methods papers; you'll need them for the methods chapter.
      Many strong results come from a handful of cities with excellent data, like [[place]].
      Conference abstracts are useful for spotting trends but rarely enough to cite.
      Note page numbers for any quote or specific number you might use.
      A reading log with consistent fields turns into your literature table almost for free.
    `)
    },
    {
      name: 'methods',
      asks: lines(`
        What methods are typical for studying heat and health outcomes? || Time-series studies relate daily temperature to daily counts of deaths or admissions, usually with flexible models for lagged effects. Case-crossover designs compare each person's exposure on the event day with their own exposure on nearby control days. Spatial studies compare neighbourhoods with different heat exposure.
        Which design would suit my question best? || Since you care about differences between neighbourhoods, a design that combines time and space fits: daily admissions per neighbourhood, with an interaction between heat days and neighbourhood characteristics. A multilevel model handles the grouping naturally. Keep the first version simple and add complexity only if it's justified.
        How do I measure heat exposure at the neighbourhood level? || Satellite land surface temperature gives fine spatial detail but measures surfaces, not the air people breathe. Reanalysis or station data give air temperature but at coarser resolution. Many studies use both: one for daily variation, one for spatial differences.
        What confounders do I need to worry about? || Air pollution, season, day of week, holidays and long-term trends for the time dimension; age structure, deprivation and baseline health for the spatial one. Humidity matters for heat stress too. Draw a causal diagram before choosing adjustment variables.
        How should I handle lagged effects? || Heat effects appear quickly, within zero to three days, with some displacement afterwards. A distributed lag model lets the data show the shape. Report cumulative effects over a sensible window rather than a single lag.
        What sample size do I need? || For time-series analyses, the number of days and events matters more than the number of people. A few summers of daily admissions in a mid-sized city usually give enough power for the main effect; interactions need more. Do a rough power calculation and be honest about it in the limitations.
        How do I deal with missing data in the exposure? || Cloud cover leaves gaps in satellite data; you can average over several cloud-free images per summer to characterise neighbourhoods. For daily values, rely on station or reanalysis data. Document every choice, because examiners will ask.
        Should I preregister the analysis? || It's a good idea, even for a master's thesis: it protects you from your own flexibility later and impresses examiners. A short plan on an open platform with the question, data, model and main outcome is enough. Mark any later deviation clearly.
      `),
      says: lines(`
      Simple models that you understand beat complex ones you can't explain at the defence.
      Distributed lag models need careful choice of the number of knots; report what you chose and why.
      Always check residuals for remaining seasonality and autocorrelation.
      Overdispersion is common with count data, so use a quasi-Poisson or negative binomial model.
      A causal diagram makes your choice of confounders defensible.
      Temperature and air pollution are correlated on hot days, which complicates adjustment.
      Reporting both relative and absolute effects helps readers outside epidemiology.
      Sensitivity analyses should be planned before you see the main result.
    `)
    },
    {
      name: 'data',
      asks: lines(`
        Where can I get health data for this? || Hospital admissions are usually held by national or regional health agencies and need an application. Mortality data are often easier to access in aggregated form. Start the application early; approval can take months.
        What about climate and satellite data? || Reanalysis products give hourly air temperature on a regular grid, free after registration. Satellite land surface temperature is available from the big earth observation programmes. Both come in formats that need some processing in R or Python.
        How do I link health data to neighbourhoods? || Use the residential postcode or small-area code in the health data and aggregate to neighbourhoods that match your exposure grid. Be careful with areas that changed boundaries over time. Keep a clear record of every join.
        The data agency wants a data management plan. What goes into it? || Where the data are stored, who can access them, how they are protected, how long they are kept and what happens at the end. Mention that only aggregated results leave the secure environment. Your university probably has a template.
        What software should I use for the analysis? || R is the most common choice in environmental epidemiology, with packages for distributed lag models and mixed models. Python works too, especially for the satellite processing. Pick one main language and script everything so the analysis is reproducible.
        How should I structure the project folder? || Separate raw data, processed data, scripts, outputs and the thesis text. Raw data are never modified. Number scripts in the order they run and have one script that reproduces everything.
        How do I check the data for problems? || Plot everything first: daily counts over time, temperature over time, maps of each variable. Look for missing days, sudden jumps and implausible values. Compare totals with published statistics.
        Should I share my code at the end? || Yes, if you can, in a public repository with a short README, even if the data themselves can't be shared. It shows care and makes your results checkable. Remove any paths or details that reveal protected data.
      `),
      says: lines(`
      Data access takes longer than anyone expects, so start the paperwork in the first month.
      Satellite products are large; download only the area and months you need.
      Keep a data dictionary with every variable, its source, unit and any transformation.
      Small area codes change over time; check the boundary files for your years.
      Never edit raw files by hand; every change should live in a script.
      Version control for scripts is worth the small learning curve.
      Check totals against official statistics as a sanity test.
      Aggregate health data are often enough for the questions you're asking.
    `)
    },
    {
      name: 'results',
      asks: lines(`
        I ran the first model and the effect is much smaller than in the literature. Should I be worried? || Not necessarily. Smaller effects are common in replications, and your exposure measure or population may differ. Check the obvious problems first: units, lags, and whether the reference temperature is the same as in other studies.
        How do I present effect sizes clearly? || Give relative risks with confidence intervals for a meaningful contrast, for example a hot day versus a typical summer day. Translate them into absolute numbers of extra admissions per summer if you can. Readers remember absolute numbers.
        The interaction with tree cover is not significant. Does that mean there's no effect? || No: absence of evidence isn't evidence of absence, especially for interactions, which need much more data. Report the estimate and its interval and discuss what size of effect you could have detected. That is more informative than a p-value.
        How many robustness checks should I run? || A handful of well-chosen ones: a different lag window, a different exposure measure, excluding one unusual summer, and adjusting for pollution. Put them in a table in the appendix. Don't run dozens and report the one you like.
        How do I make good figures? || One message per figure, with axes labelled in words and units. Exposure-response curves with shaded intervals and maps of neighbourhood effects are the classic figures in this area. Avoid rainbow colour scales on maps.
        One neighbourhood behaves very differently from the others. What do I do? || Look at why: a data problem, a hospital boundary, a care home, or a real difference. Report it transparently and show results with and without it. Never drop it silently.
        How should I write up null or weak results? || Plainly, with the intervals, and with a careful discussion of power and measurement. A well-argued weak result is a perfectly good thesis. Examiners value honesty over drama.
        Can I say anything about causation? || Carefully. Time-series designs control for many confounders by design, which supports a causal reading of the short-term heat effect. The neighbourhood differences are more vulnerable to confounding, so phrase those as associations.
      `),
      says: lines(`
      Report point estimates with intervals, not just p-values.
      An exposure-response curve tells the story better than a single coefficient.
      Check whether a few extreme days drive the whole result.
      Maps of neighbourhood-level effects should show uncertainty as well as the estimate.
      Unexpected results often reveal data problems first and interesting findings second.
      Keep every model you run in a log, including the ones that didn't work.
      Interpret interaction terms on the scale readers understand, not only on the log scale.
      Your result is in the range of [[study]], which is reassuring rather than disappointing.
    `)
    },
    {
      name: 'writing',
      asks: lines(`
        How should I structure the thesis? || Introduction, background and literature, data and methods, results, discussion, conclusion. The introduction ends with your research question; the discussion starts by answering it in plain words. Appendices hold the robustness checks and extra tables.
        I keep rewriting the introduction. How do I stop? || Write a rough version, then leave it until the end; the introduction is easier once you know what you found. Aim for a funnel: the problem, what is known, the gap, your question. Four or five paragraphs are enough.
        How do I write a literature review that isn't just a list of summaries? || Organise by theme or argument rather than by paper. Each paragraph should make a point and use several studies as evidence for it. End the section with the gap your thesis addresses.
        How long should each chapter be? || Methods and results together usually make up about half the thesis, with the literature review around a fifth. Check your department's guidelines, which usually give a range. Don't pad to reach a number.
        How do I write the discussion? || Answer the question first, then compare with previous studies, then explain differences, then discuss strengths and limitations, then implications. Be specific about what your results mean for policy. End with what future studies should do.
        How do I avoid plagiarism when paraphrasing so many papers? || Read, close the paper, and write from memory, then check for accuracy. Cite every idea that isn't yours, not only direct quotes. Your reference manager makes consistent citations easy.
        Any tips for writing every day? || Set a small daily target, like three hundred words or one section outline, and stop when you reach it. Write first, edit later. Keep a running document of questions for your advisor instead of getting stuck.
        How should I handle feedback that contradicts itself? || Ask which comments are essential and which are suggestions, and discuss conflicts openly with your advisor. Keep a table of comments and how you addressed them. That table also helps when you defend the thesis.
      `),
      says: lines(`
      Topic sentences carry the argument; the rest of the paragraph supports them.
      Short paragraphs with one idea each are easier for examiners to follow.
      Define every abbreviation at first use, and don't invent too many.
      Use the past tense for what you did and the present tense for what the results show.
      A consistent figure style makes the thesis look professional at little cost.
      Reread each chapter aloud once; awkward sentences become obvious.
      Keep a list of claims that need a citation and fill it in before each draft goes out.
      Cut anything that doesn't serve the research question, however interesting.
    `)
    },
    {
      name: 'defence',
      asks: lines(`
        How should I prepare for the defence? || Know your own thesis better than anyone, including its weaknesses. Prepare a short presentation that tells the story: question, data, main result, what it means. Anticipate the obvious questions and practise answering them aloud.
        What questions do examiners usually ask in this field? || Why this exposure measure, how you handled confounding, whether the results could be due to chance or bias, and what the policy implications are. Expect a question about a study you didn't cite. Answer calmly and honestly when you don't know.
        How long should the presentation be? || Usually fifteen to twenty minutes; check the rules. Ten to twelve slides are plenty. Spend most of the time on the results and what they mean.
        How do I handle a question I can't answer? || Say that it's a good question, think aloud about how you would approach it, and relate it to what you did. Examiners mainly want to see how you reason. Bluffing is much worse than an honest "I don't know, but here is how I would find out."
        Should I turn the thesis into a paper? || If the results are solid and your advisor agrees, yes: a shorter version for a journal or a conference is good experience. Start after the defence, with the examiners' comments in hand. Your advisor would usually be a co-author.
        What should I do in the week before the defence? || Reread the thesis once, rehearse the presentation twice with an audience, and rest. Prepare a page of notes on the key numbers. Check the room and the equipment.
        Any tips for nerves? || Remember that nobody knows your work better than you. Breathe, slow down, and pause before answering. A glass of water on the table gives you a natural moment to think.
        What happens after the defence? || You'll usually get corrections to make within a deadline, then final submission to the library. Keep your data and code organised in case you publish later. And celebrate properly.
      `),
      says: lines(`
      The first question is often "why did you choose this topic?", so have a good answer.
      Rehearse the first two minutes of the presentation until they feel natural.
      Bring a printed copy of the thesis with tabs on key tables.
      Examiners usually want you to pass; the defence is a conversation, not an ambush.
      A backup of the slides on a USB stick has saved many defences.
      Answer the question that was asked, then stop.
      It's fine to ask the examiner to repeat or clarify a question.
      Thank the examiners for their comments; they read your whole thesis.
    `)
    }
  ],
  facts: [
    {
      fact: 'the advisor is Dr. Okonkwo-Hale',
      keywords: ['Okonkwo-Hale'],
      topic: 0,
      turn: 1,
      text: 'My advisor is Dr. Okonkwo-Hale, who works on environmental justice, so the exposure angle suits her.',
      ack: 'An advisor from environmental justice will push the inequality framing, which is a strength.'
    },
    {
      fact: 'the thesis is due on 2027-01-29',
      keywords: ['2027-01-29'],
      topic: 0,
      turn: 2,
      text: 'Hard deadline for submission is 2027-01-29, no extensions.',
      ack: 'That gives a clear backwards plan: data by early autumn, results by November, writing in December.'
    },
    {
      fact: 'the study city is Ghent',
      keywords: ['Ghent'],
      topic: 0,
      turn: 4,
      text: "I'll study Ghent, because the city shares neighbourhood data and my advisor has contacts at the hospital network.",
      ack: 'Contacts with the data holders are worth more than a perfect city choice.'
    },
    {
      fact: 'the word limit is 12,000 words',
      keywords: ['12,000 words'],
      topic: 0,
      turn: 6,
      text: 'The thesis has a strict limit of 12,000 words excluding references and appendices.',
      ack: 'That is tight for an empirical thesis, so appendices will do a lot of work.',
      refs: [
        "I'm worried the literature chapter is eating too much of the word limit we talked about. How much can I move to the appendix?"
      ]
    },
    {
      fact: 'the core review is by Marrow and Lindqvist (2019)',
      keywords: ['Lindqvist'],
      topic: 1,
      turn: 0,
      text: 'The review my advisor told me to start with is Marrow and Lindqvist (2019), the one on heat vulnerability indices.',
      ack: 'Good starting point; reviews like that give you the map before you go into individual studies.'
    },
    {
      fact: 'the reading group meets in room B214',
      keywords: ['B214'],
      topic: 1,
      turn: 2,
      text: 'There is also a reading group on Tuesdays in room B214 where we present one paper each.',
      ack: 'Presenting papers to peers is the fastest way to understand them properly.'
    },
    {
      fact: 'the user is sceptical of Harlan (2021) because of selection bias',
      keywords: ['Harlan'],
      topic: 1,
      turn: 4,
      text: "I'm sceptical of Harlan (2021): they recruited through a heat helpline, which seems like obvious selection bias.",
      ack: "That's a sharp critique: people who call a helpline differ systematically from those who don't."
    },
    {
      fact: 'the citation style is Chicago author-date',
      keywords: ['author-date'],
      topic: 1,
      turn: 6,
      text: 'The department requires Chicago author-date for citations.',
      ack: 'Set that style in the reference manager now and you will never think about it again.'
    },
    {
      fact: 'the main model is a DLNM',
      keywords: ['DLNM'],
      topic: 2,
      turn: 1,
      text: 'We decided the main model is a DLNM with lags up to three days, and the neighbourhood interaction on top.',
      ack: 'That is the standard tool for this question, and examiners will know it.'
    },
    {
      fact: 'the reference relative risk is 1.037 per degree',
      keywords: ['1.037'],
      topic: 2,
      turn: 3,
      text: 'For comparison, the pooled estimate I want to compare against is a relative risk of 1.037 per degree above the threshold.',
      ack: 'A pooled estimate is a good benchmark, as long as you compare like with like on the threshold and lags.'
    },
    {
      fact: 'the preregistration is at osf.io/7k2mq',
      keywords: ['7k2mq'],
      topic: 2,
      turn: 7,
      text: 'I posted the preregistration: osf.io/7k2mq.',
      ack: 'Well done; link it in the methods chapter and mention any deviations explicitly.'
    },
    {
      fact: 'the data application number is HDO-2026-0318',
      keywords: ['HDO-2026-0318'],
      topic: 3,
      turn: 0,
      text: 'I submitted the data application to the regional health data office, reference HDO-2026-0318.',
      ack: 'Keep that reference handy; you will need it in every email with them and in the ethics section.'
    },
    {
      fact: 'temperature comes from ERA5-Land',
      keywords: ['ERA5-Land'],
      topic: 3,
      turn: 1,
      text: "For air temperature I'll use ERA5-Land, hourly, aggregated to daily maxima.",
      ack: 'Daily maxima are a sensible choice; mention that minima matter too for night-time heat.'
    },
    {
      fact: 'the analysis uses the R package lme4',
      keywords: ['lme4'],
      topic: 3,
      turn: 4,
      text: "I'll do the multilevel part in R with lme4, since that's what the department teaches.",
      ack: 'Using what your examiners know has real advantages.'
    },
    {
      fact: 'the summer window starts on 15 June',
      keywords: ['15 June'],
      topic: 3,
      turn: 6,
      text: 'We fixed the summer window as 15 June to 15 September for every year.',
      ack: 'A fixed window keeps years comparable; mention it in the preregistration update.'
    },
    {
      fact: 'the first model gave a relative risk of 1.012',
      keywords: ['1.012'],
      topic: 4,
      turn: 0,
      text: 'The first model gives a relative risk of 1.012 per degree, with a wide interval.',
      ack: 'Modest, but not implausible, given your exposure measure.'
    },
    {
      fact: 'the outlier neighbourhood is Muide',
      keywords: ['Muide'],
      topic: 4,
      turn: 5,
      text: 'The odd one is Muide, the port area, where admissions barely move with heat.',
      ack: 'A port district with few residents and many workers could easily behave differently.'
    },
    {
      fact: 'the co-author is Priyanka Venkataraman',
      keywords: ['Venkataraman'],
      topic: 5,
      turn: 2,
      text: 'Priyanka Venkataraman from the geography department offered to co-write the paper version with me.',
      ack: 'A geographer as co-author would strengthen the spatial side.'
    },
    {
      fact: 'the defence is on 23 February',
      keywords: ['23 February'],
      topic: 6,
      turn: 0,
      text: 'The defence is scheduled for 23 February, in the afternoon.',
      ack: 'That leaves you some weeks after submission to prepare calmly.'
    },
    {
      fact: 'the external examiner is Prof. Ashworth-Reyes',
      keywords: ['Ashworth-Reyes'],
      topic: 6,
      turn: 1,
      text: 'The external examiner will be Prof. Ashworth-Reyes, who is known for tough questions on exposure measurement.',
      ack: 'Then expect detailed questions on why you chose your temperature measures.'
    }
  ]
}

// ---------------------------------------------------------------- household finance

const MERCHANTS = [
  'Rewe',
  'Edeka',
  'Aldi Süd',
  'dm-drogerie',
  'Deutsche Bahn',
  'Netflix',
  'Spotify',
  'Stadtwerke',
  'Apotheke am Markt',
  'Bäckerei Kruse',
  'Amazon',
  'Ikea',
  'Shell',
  'Decathlon',
  'Telekom'
]

const finStatement = (c: Composer): string => {
  const month = String(c.int(1, 9)).padStart(2, '0')
  const rows: string[] = []
  for (let i = 0, n = c.int(6, 10); i < n; i++) {
    rows.push(
      `2026-${month}-${String(c.int(1, 28)).padStart(2, '0')};${c.pick(MERCHANTS)};-${c.int(3, 240)},${String(c.int(0, 99)).padStart(2, '0')}`
    )
  }
  return `Part of last month's statement export:\n\n\`\`\`csv\ndate;description;amount_eur\n${rows.sort().join('\n')}\n\`\`\``
}

const finBudget = (c: Composer): string => {
  const items = [
    ['Housing', 1200, 1600],
    ['Childcare', 400, 800],
    ['Groceries', 500, 900],
    ['Transport', 120, 380],
    ['Insurance', 90, 260],
    ['Subscriptions', 30, 90],
    ['Eating out', 80, 260],
    ['Personal (each)', 100, 250],
    ['Savings', 300, 900]
  ] as const
  return `| Category | Planned | Actual |\n|---|---:|---:|\n${items.map(([k, lo, hi]) => `| ${k} | €${c.int(lo / 10, hi / 10) * 10} | €${c.int(lo, hi)} |`).join('\n')}`
}

const finPots = (c: Composer): string => {
  const pots = [
    'Car repairs',
    'Birthdays and holidays',
    'Summer trip',
    'Home maintenance',
    'New bike',
    'Annual insurance'
  ]
  return pots
    .slice(0, c.int(3, 6))
    .map((p) => `- ${p}: €${c.int(4, 90) * 10} a month, now at €${c.int(10, 400) * 10}`)
    .join('\n')
}

const finance: Domain = {
  name: 'household-finance',
  seed: 0xf17a9e,
  followups: 0.85,
  extraBlocks: 0.75,
  lex: {
    amount: lines(`€[[n:40-95:5]]
      €[[n:120-480:10]]`)
  },
  openers: [
    ...SHARED_OPENERS,
    ...lines(`
    Money questions are half numbers and half habits, so let me cover both.
    Without knowing every detail, here is the general rule and how it applies to you.
  `)
  ],
  closers: [
    ...SHARED_CLOSERS,
    ...lines(`
    Want me to put these numbers into a simple table for your next check-in?
  `)
  ],
  reactions: SHARED_REACTIONS,
  asides: lines(`
    We're both a bit anxious about money since the baby arrived.
    I'm the spreadsheet person in this relationship, if that wasn't obvious.
    We live in Hamburg, so prices are what they are.
    Honestly, we've avoided this topic for too long.
    My parents never talked about money at all, so this is new territory for me.
    We spent about [[amount]] on takeaway last month, which shocked us.
    I get paid at the end of the month, my partner mid-month, which complicates things.
    We'd like to do this without turning into misers.
  `),
  generic: lines(`
    Automate whatever you can; willpower is a limited resource.
    A budget is a plan, not a judgement of your character.
    Small recurring costs matter more than occasional big purchases.
    Review the plan together; a budget owned by one person rarely survives.
    Round numbers are fine; precision is less important than consistency.
    Keep receipts for anything that might be tax-deductible in one folder.
    Give every euro a job at the start of the month.
    The first three months of any budget are a learning period, so expect adjustments.
    Write down your decisions so you don't relitigate them every month.
    Compare prices before renewals, not after.
    Progress is rarely linear; look at the trend over several months.
    The best financial plan is one you both understand.
    Celebrating small wins keeps you motivated for the long haul.
    If a rule keeps being broken, the rule is probably wrong.
  `),
  interludes: [
    [
      'Silly question: what does "net" versus "gross" salary mean exactly?',
      'Gross is your salary before taxes and social contributions; net is what actually arrives in your account. Budgets should always be built on net income. Bonuses are usually taxed at a higher marginal rate, so the net bonus is often smaller than expected.'
    ],
    [
      'Is it normal to feel guilty about spending money even when we can afford it?',
      'Very normal, especially after a big change like a child. A budget that includes guilt-free spending money helps, because the spending is planned. Over time, seeing savings grow usually eases the feeling.'
    ],
    [
      'What is a good app for splitting costs with friends on a trip?',
      'Any of the popular expense-splitting apps works; they track who paid what and settle up at the end. Agree on the app before the trip. Cash-heavy trips are easier if one person holds a shared kitty.'
    ],
    [
      'Do we need to keep paper bank statements?',
      "Digital statements are fine for most purposes; download them regularly because banks don't keep them forever online. Keep anything tax-related for the legally required period. A folder per year keeps it tidy."
    ]
  ],
  pastes: {
    overview: [finStatement],
    budget: [finStatement, (c) => `This is our first draft:\n\n${finBudget(c)}`],
    savings: [(c) => `Our pots right now:\n\n${finPots(c)}`],
    debts: [finStatement],
    bills: [finStatement],
    future: [(c) => `Current numbers:\n\n${finBudget(c)}`],
    goals: [(c) => `What we have so far:\n\n${finPots(c)}`]
  },
  makers: {
    budget: [finBudget],
    savings: [finPots],
    goals: [finPots],
    overview: [finBudget]
  },
  topics: [
    {
      name: 'overview',
      asks: lines(`
        My partner and I want to get our household finances in order. We've never really had a budget. Where do we start? || Start by finding out where the money actually goes, before deciding where it should go. Export the last three months from your bank accounts and sort every transaction into a handful of categories. The result is usually surprising, and it gives you a realistic baseline instead of a wish list.
        How detailed should the categories be? || Fewer than you think: housing, childcare, groceries, transport, insurance, subscriptions, eating out, personal spending and savings. Ten to twelve categories are enough to see patterns. Very detailed categories make tracking a chore, and chores get abandoned.
        Should we merge our finances completely or keep separate accounts? || Many couples do well with a hybrid: a joint account for shared costs and savings, and personal accounts for individual spending. Each pays into the joint account, either equally or in proportion to income. Personal money without justification avoids a lot of small arguments.
        How do we split shared costs fairly when we earn different amounts? || Proportional to income is the most common fair answer: if one earns sixty percent of the total, they cover sixty percent of shared costs. Some couples prefer equal shares with the higher earner covering extras. The important thing is that you both agree it feels fair.
        What tools would you use for tracking? || A simple spreadsheet is enough for most households and keeps you close to the numbers. Budgeting apps help if you want automatic categorisation, but check what they do with your bank data. Whatever you choose, review it together once a month.
        How often should we talk about money together? || A short monthly check-in works well: twenty minutes, look at the month, adjust next month's plan. Add a longer review twice a year for goals and big decisions. Keep it routine so money talks don't only happen when something goes wrong.
        We argue about small purchases a lot. Any suggestions? || Agree on a threshold below which each of you spends freely from personal money, and discuss anything above it. Personal allowances remove most friction. Arguments about small purchases are usually about feeling unheard, not about the money.
        What should our first month's goal be? || Just tracking and one small win, like cancelling unused subscriptions. Don't try to fix everything in month one. Momentum matters more than perfection.
      `),
      says: lines(`
      Most couples underestimate variable spending by a fifth or more.
      Look at three months rather than one; single months are noisy.
      The categories matter less than reviewing them regularly.
      A joint account for shared costs simplifies the monthly check-in.
      Money conversations go better with a specific agenda and a time limit.
      Start where the money is: the three largest categories usually explain most of the problem.
      Agree on definitions, like what counts as groceries, before comparing numbers.
      It helps to separate the facts, what we spent, from the feelings about it.
    `)
    },
    {
      name: 'budget',
      asks: lines(`
        Let's build the monthly budget. What comes first? || Fixed costs first: mortgage, insurance, childcare, utilities and loan payments. Then savings, paid on payday as if it were a bill. What remains is for variable spending, groceries, transport, fun.
        How much of our income should go to savings? || A common target is around fifteen to twenty percent, but any consistent amount beats an ambitious plan you abandon. Start with what you can sustain and raise it with each pay rise. Automate the transfer so it happens before you can spend it.
        Childcare is our biggest new cost. How do we plan for it? || Treat it as a fixed cost and check whether your employer or the city offers subsidies or tax relief. Ask how fees change with age; they often drop when a child moves up a group. Keep the receipts, because childcare costs are often partly deductible.
        Our grocery spending is all over the place. How do we control it? || Set a monthly amount, plan meals for the week, shop with a list and do one big shop plus small top-ups. Track it weekly, not monthly, so you can correct course. Bulk-buying staples helps if you have storage.
        What about irregular expenses like birthdays and car repairs? || Add up last year's irregular expenses and divide by twelve, then save that amount monthly into a separate pot. When the expense comes, the money is already there. It turns surprises into plans.
        How should we handle a month where we overspend? || Look at why, without blame, and adjust the next month rather than raiding savings. If the same category overspends three months running, the budget is unrealistic, not you. Change the number.
        Is it worth using cash envelopes for some categories? || For categories where you struggle, like eating out, it can work well because you can see the money disappear. Digital versions with separate sub-accounts do the same job. Use it for one or two categories, not everything.
        How do we budget for fun without feeling guilty? || Make fun a line in the budget. Money set aside for enjoyment is planned spending, not a failure. Couples who budget zero fun tend to abandon the budget entirely.
      `),
      says: lines(`
      Pay yourselves first: savings leave the account on payday.
      A buffer of [[amount]] for unexpected small costs avoids breaking the budget every month.
      Fixed costs are easiest to reduce once, through renegotiation or switching.
      Weekly check-ins on groceries catch overspending before the month is gone.
      Meal planning saves both money and the daily "what do we eat" debate.
      Sinking funds for irregular costs are the secret of budgets that survive.
      Don't budget to the last euro; leave some slack.
      Compare your numbers with last year's, not with other families'.
    `)
    },
    {
      name: 'savings',
      asks: lines(`
        How big should our emergency fund be? || Three to six months of essential expenses is the usual range; closer to six if your income is variable or you have one main earner. Essential means what you'd need if you cut everything optional. Build it before investing.
        Where should we keep the emergency fund? || In an instant-access savings account separate from your everyday account, ideally at another bank so it's out of sight. It should earn some interest but safety and access matter more than return. Don't invest it in shares.
        How do we build it faster? || Automate a fixed monthly transfer, and direct windfalls like bonuses or tax refunds there until it's full. Selling things you don't use adds up faster than people think. Once it's full, redirect the transfer to other goals.
        Should we pay off debt first or save first? || Build a small starter buffer first, a month of expenses, so a surprise doesn't go on a credit card. Then pay off expensive debt aggressively while building the rest of the fund more slowly. Cheap, fixed-rate debt can be paid on schedule.
        What interest rates are realistic on savings right now? || Rates vary a lot between banks, so it's worth comparing; online banks often pay more than the big branch banks. Check whether a rate is an introductory offer that drops after a few months. Deposit protection up to the statutory limit matters too.
        How do we keep ourselves from dipping into savings? || Separate account, no card attached, a name that reminds you what it's for. Make withdrawals a joint decision. Friction is your friend here.
        What should we do with the bonus? || Split it: part to the emergency fund or debt, part to a goal, and a small part to enjoy. A rule decided in advance avoids debates every year. Even ten percent for fun keeps the rule sustainable.
        Should we have separate savings pots for different goals? || Yes, named pots make goals concrete and stop one goal quietly eating another. Many banks let you create sub-accounts for free. Review them twice a year.
      `),
      says: lines(`
      An emergency fund is insurance you pay to yourself.
      Instant access matters more than the last tenth of a percent of interest.
      Naming savings pots makes it harder to raid them casually.
      Check the deposit protection scheme of any bank you use.
      Windfalls are the fastest way to build a fund; decide the rule before the money arrives.
      Even [[amount]] a month adds up to a meaningful sum within a couple of years.
      Keep the fund separate from investment accounts.
      Refill the fund first after you've used it.
    `)
    },
    {
      name: 'debts',
      asks: lines(`
        Our car needs an expensive repair. Repair it or replace it? || Compare the repair cost with the car's value and what a replacement would cost per month over the next few years. A big repair on a reliable car that otherwise runs well is often the cheaper option. If repairs are becoming frequent, start saving for the replacement now.
        We have a kitchen on a zero percent loan. Should we pay it off early? || Generally no: zero percent debt costs you nothing, so your money works harder in savings or against costlier debt. Do check for hidden fees or a rate that jumps if you miss a payment. Make sure the payments are automated.
        How do we think about the mortgage: overpay or save? || Compare the mortgage rate with what your savings earn after tax, and check the overpayment allowance in your contract. Overpaying is a guaranteed return at the mortgage rate, but the money is locked away. Many people do a bit of both once the emergency fund is full.
        What happens when our fixed rate ends? || Start comparing offers about a year before it ends; many lenders let you lock in a new rate in advance. Model your budget at a higher rate now so there are no surprises. Don't let it roll onto a variable rate by default.
        Is a credit card useful at all for us? || Used carefully, a card paid in full every month gives purchase protection and sometimes travel insurance. If either of you finds it tempting to carry a balance, a debit card is the better tool. It's a personal choice, not a financial necessity.
        How do we avoid taking on new debt? || Savings pots for predictable big expenses, an emergency fund for unpredictable ones, and a rule that any new loan needs a joint decision and a cooling-off period. Most consumer debt comes from expenses that were foreseeable.
        Should we consolidate small debts into one loan? || Only if the new rate is lower and you close or freeze the old credit lines, otherwise you risk ending up with both. Check fees. Often the simplest path is paying the most expensive debt first.
        How do we track all our debts in one place? || A single table with lender, balance, rate, monthly payment and end date. Update it once a month. Seeing the balances shrink is motivating.
      `),
      says: lines(`
      The interest rate decides the order in which to repay debts.
      Zero percent financing is fine as long as the payments are automatic.
      Overpayment allowances on mortgages are usually a percentage of the balance each year.
      Model a higher interest rate now so the end of a fixed period holds no surprises.
      A car's running costs often matter more than its purchase price.
      Keep a list of every loan with its end date; the end dates free up cash flow.
      Never take on new debt to solve a budgeting problem.
      Repair quotes vary widely, so get at least two.
    `)
    },
    {
      name: 'bills',
      asks: lines(`
        Our energy bills went up a lot. Is it worth switching providers? || Usually yes, if you're on a default tariff: comparison sites show the savings in a few minutes. Check the contract length, the price guarantee and any bonus that only applies in the first year. Switching itself is painless; the new provider handles it.
        How do we check that our insurance isn't overpriced? || List every policy with its cover, price and renewal date, then compare each one before renewal. Look for duplicate cover, for example travel insurance through a card and a separate policy. Loyalty rarely pays with insurers.
        What insurance do families actually need? || Personal liability, household contents, adequate health cover, and life or disability cover if someone depends on your income. Other policies are often optional. Make sure the big risks are covered before buying small ones.
        We have too many subscriptions. How do we cut them? || List every recurring payment from your bank statements, cancel what you haven't used in a month, and rotate streaming services instead of holding several at once. Annual plans are cheaper only if you'll really use them all year.
        How can we reduce energy use without being cold? || Programmable thermostats, sealing draughts, lowering the temperature by one degree, and washing at lower temperatures make a real difference. Check whether your city subsidises insulation or heat pumps. Small changes add up over a year.
        Are fixed-price contracts better than variable ones? || They trade a possibly higher price for certainty. For a tight budget, certainty can be worth a little extra. Check the exit fees.
        What about the phone and internet contracts? || Most people overpay after the initial contract period ends. Call the provider a month before the end date and ask for the current offer, or switch. Check whether you need all that data.
        How do we remember all the renewal dates? || Put each one in a shared calendar with a reminder a month before. Add the current price to the calendar entry. Then you have time to compare.
      `),
      says: lines(`
      Default tariffs are almost always the most expensive option.
      Price guarantees protect you from increases, not from decreases.
      Insurance renewals are the moment to compare, not the month after.
      Many providers offer a better price when you mention you're about to leave.
      Annual payments often come with a discount if your cash flow allows it.
      Direct debits should be checked against statements once a month.
      Subscriptions tend to creep back; do a clean-up twice a year.
      Small energy savings compound over the heating season.
    `)
    },
    {
      name: 'future',
      asks: lines(`
        How should we think about retirement at our age? || Start with what you already have: employer schemes, state pension entitlements and any private savings. The most valuable step is usually taking the full employer match, because it's free money. Then decide how much more to invest regularly.
        Is investing in an index fund a good idea for beginners? || For long-term goals, a broad, low-cost global index fund is a sensible default for most beginners. It spreads risk across thousands of companies and keeps costs low. Invest regularly and don't check it daily.
        How do we deal with taxes on investments? || Use tax-advantaged accounts and allowances first, and keep records of every purchase and sale. Rules vary a lot by country, so a short session with a tax advisor can pay for itself. Don't let taxes drive every decision, though.
        Should we get professional financial advice? || Fee-only advice, paid by the hour, is worth it for big decisions like pensions or a house purchase. Be careful with advisers paid by commission on products they sell. Come prepared with your numbers and questions.
        How much should we save for our daughter's future? || Even a small monthly amount invested over eighteen years grows substantially. Decide whether the money is for education, a first home, or general support, because that affects where to hold it. Don't prioritise it over your own retirement.
        What should we do about wills and guardianship? || Write a will and name a guardian for your child; it's one of the most important things new parents can do. It doesn't have to be expensive. Review it every few years.
        How do we balance enjoying life now with saving for later? || Set the savings rate you can keep, then spend the rest without guilt. Revisit the balance each year. Financial plans fail more often from being too strict than too generous.
        What's a sensible way to review our investments? || Once a year, check the allocation, rebalance if it drifted a lot, and confirm the contributions are running. Ignore daily news. Consistency beats clever timing.
      `),
      says: lines(`
      Time in the market matters more than timing the market.
      Low costs are one of the few things an investor can control.
      An employer match is an immediate, guaranteed return.
      Keep investments simple enough that you could explain them to a friend.
      Rebalancing once a year is plenty.
      Your own retirement comes before saving for your child's education.
      A will is cheap compared to the problems it prevents.
      Check your state pension statement once a year for errors.
    `)
    },
    {
      name: 'goals',
      asks: lines(`
        We'd love a family holiday next summer. How do we plan for it financially? || Estimate the total, divide by the months until you go, and save that amount monthly in a named pot. Book early for lower prices where cancellation is flexible. Decide in advance what's included so the trip doesn't grow.
        How do we set goals we'll actually stick to? || Make them specific, with an amount and a date, and automate the saving. Write down why each goal matters to you. Review progress monthly so the goal stays visible.
        Should we save for a bigger home or stay where we are? || Compare the full costs of moving, not just the price difference: taxes, fees, moving costs, furnishing. Sometimes improving the current home is cheaper. Either way, start a dedicated pot now.
        How do we handle a goal that one of us cares about more? || Let each of you have a personal goal funded from personal money, alongside shared goals. Shared goals should be ones you both genuinely want. Compromise on timing rather than on whether a goal matters.
        What should we do when an unexpected windfall arrives? || Wait a couple of weeks before deciding, then apply your rule: emergency fund first, then goals, then a small treat. Windfalls vanish fastest when spent immediately.
        How do we celebrate reaching a goal without undoing it? || Plan a small celebration with a fixed budget when you set the goal. Marking the moment makes the next goal easier. Then redirect the monthly transfer to the next goal straight away.
        How do we talk to our daughter about money as she grows? || Pocket money with simple rules, a savings jar, and talking openly about choices at the supermarket. Children learn most from what they see. Keep it positive rather than anxious.
        What would you put in our plan for the next twelve months? || Finish the emergency fund, switch expensive contracts, automate savings for the holiday and irregular expenses, take the full employer match, and review everything in six months. Write it on one page and stick it on the fridge.
      `),
      says: lines(`
      Goals with a date and an amount get funded; vague goals don't.
      Automating the transfer is what turns a wish into a plan.
      It's fine to adjust a goal when life changes.
      Shared goals need both of you to care about them.
      Visualising progress, even as a simple bar on the fridge, keeps motivation up.
      Windfalls can fast-track a goal without changing the monthly budget.
      Keep one goal that is purely for fun.
      The holiday pot usually fills faster than people expect once it's automatic.
    `)
    }
  ],
  facts: [
    {
      fact: 'the household take-home pay is €5,260 a month',
      keywords: ['€5,260'],
      topic: 0,
      turn: 1,
      text: 'Together we take home €5,260 a month after tax.',
      ack: 'That is a solid base to plan from, and having the exact net number helps.'
    },
    {
      fact: "the partner is Jonas and he doesn't like credit cards",
      keywords: ['Jonas'],
      topic: 0,
      turn: 2,
      text: 'My partner Jonas refuses to have a credit card, on principle, after his brother got into trouble with one.',
      ack: 'A debit-only household is perfectly workable; it just needs a buffer for deposits like hotels.'
    },
    {
      fact: 'purchases over €300 are discussed first',
      keywords: ['€300'],
      topic: 0,
      turn: 6,
      text: 'We agreed that anything over €300 gets discussed first, whoever pays.',
      ack: 'A clear threshold is exactly the kind of rule that prevents arguments.',
      refs: [
        'My partner bought a new bike trailer without asking, which technically broke our spending threshold. How do we handle that without a fight?'
      ]
    },
    {
      fact: 'the mortgage is fixed at 4.35% until 2029',
      keywords: ['4.35%'],
      topic: 1,
      turn: 0,
      text: 'Our mortgage is fixed at 4.35% until 2029, about €1,385 a month.',
      ack: 'A fixed rate until then gives you stability for the next few years.'
    },
    {
      fact: 'daycare is at Kleine Eule',
      keywords: ['Kleine Eule'],
      topic: 1,
      turn: 2,
      text: "She starts daycare at Kleine Eule in September, and it's €640 a month including lunch.",
      ack: 'Including lunch is good value; check the subsidy rules for your district.'
    },
    {
      fact: 'the daughter is called Matilde',
      keywords: ['Matilde'],
      topic: 1,
      turn: 4,
      text: 'Our daughter Matilde turns two in the spring, so costs will change again.',
      ack: 'Costs change a lot at each stage, so review the childcare line then.'
    },
    {
      fact: 'the grocery cap is €720 a month',
      keywords: ['€720'],
      topic: 1,
      turn: 3,
      text: "We'll try a grocery cap of €720 a month, including drugstore stuff.",
      ack: 'A cap with drugstore items included is realistic for a family of three.'
    },
    {
      fact: 'the emergency fund target is €18,000',
      keywords: ['€18,000'],
      topic: 2,
      turn: 0,
      text: 'We settled on an emergency fund target of €18,000.',
      ack: "That's about four to five months of essentials for you, which is reasonable."
    },
    {
      fact: 'the savings account is at Nordbank at 2.85%',
      keywords: ['2.85%'],
      topic: 2,
      turn: 4,
      text: 'The best instant-access account I found is at Nordbank, 2.85% with no minimum.',
      ack: 'That is competitive; check whether the rate is guaranteed or introductory.'
    },
    {
      fact: "the partner's bonus is about €2,300 in March",
      keywords: ['€2,300'],
      topic: 2,
      turn: 6,
      text: 'My partner gets a bonus in March, usually around €2,300 after tax.',
      ack: 'Then you can decide now how to split it, before it arrives.'
    },
    {
      fact: 'the Skoda timing belt repair costs €1,840',
      keywords: ['€1,840'],
      topic: 3,
      turn: 0,
      text: 'The garage quoted €1,840 for the timing belt and water pump on our 2014 Skoda Octavia.',
      ack: "For an otherwise healthy car of that age, that's usually worth doing."
    },
    {
      fact: 'the kitchen loan is with Küchenwelt at 0%',
      keywords: ['Küchenwelt'],
      topic: 3,
      turn: 1,
      text: 'The kitchen was financed through Küchenwelt at zero percent over four years.',
      ack: 'Then keep paying it on schedule and let your savings work elsewhere.'
    },
    {
      fact: 'they switched electricity to Stromwerk Nord',
      keywords: ['Stromwerk'],
      topic: 4,
      turn: 0,
      text: 'We switched electricity to Stromwerk Nord, twelve-month price guarantee.',
      ack: 'A guaranteed price through the winter is a sensible choice.'
    },
    {
      fact: 'the household insurance renews on 2026-11-30',
      keywords: ['2026-11-30'],
      topic: 4,
      turn: 1,
      text: 'Our household insurance renews on 2026-11-30, and I suspect it is overpriced.',
      ack: 'Then compare offers in October, which gives you time to switch.'
    },
    {
      fact: 'the internet contract ends on 31 August',
      keywords: ['31 August'],
      topic: 4,
      turn: 6,
      text: 'The internet contract ends on 31 August, and we pay far more than new customers.',
      ack: 'Call a month before and ask for the current offer, or switch.'
    },
    {
      fact: 'the employer matches pension contributions up to 4.5%',
      keywords: ['4.5%'],
      topic: 5,
      turn: 0,
      text: 'My employer matches pension contributions up to 4.5% of salary, and I currently put in nothing.',
      ack: "Then that match is the first thing to fix: it's free money."
    },
    {
      fact: 'the tax advisor is Frau Szymańska',
      keywords: ['Szymańska'],
      topic: 5,
      turn: 2,
      text: 'We have a tax advisor, Frau Szymańska, who did our return last year.',
      ack: 'Good; ask her about allowances for childcare and investments at your next appointment.'
    },
    {
      fact: 'they invest in an FTSE All-World ETF',
      keywords: ['All-World'],
      topic: 5,
      turn: 1,
      text: 'We decided to start with one FTSE All-World ETF in a monthly savings plan.',
      ack: 'One broad global fund is a great, simple start.'
    },
    {
      fact: 'the holiday goal is Lake Garda',
      keywords: ['Lake Garda'],
      topic: 6,
      turn: 0,
      text: 'The dream is two weeks at Lake Garda next August with his parents.',
      ack: 'A clear destination and date make the saving much easier.'
    },
    {
      fact: "Matilde's savings go into a Junior Depot",
      keywords: ['Junior Depot'],
      topic: 6,
      turn: 6,
      text: 'For our daughter we opened a Junior Depot and will put in €50 a month.',
      ack: 'Small monthly amounts over many years add up well.'
    }
  ]
}

// ---------------------------------------------------------------- main

const DOMAINS: Domain[] = [software, trip, research, finance]

function main(): void {
  const enc = get_encoding('o200k_base')
  mkdirSync(OUT, { recursive: true })
  const stats: string[] = []
  try {
    for (const domain of DOMAINS) {
      const { messages, facts } = compose(domain)
      validate(domain, messages, facts)
      writeFileSync(join(OUT, `${domain.name}.jsonl`), messages.map((m) => JSON.stringify(m)).join('\n') + '\n')
      writeFileSync(join(OUT, `${domain.name}.facts.json`), JSON.stringify(facts, null, 2) + '\n')
      // Chat framing as the OpenAI API counts it: 3 per message plus 3 to prime the reply.
      const tokens = messages.reduce((n, m) => n + 3 + enc.encode(m.content).length, 3)
      stats.push(`${domain.name}: ${messages.length} messages, ${tokens} tokens (o200k), ${facts.length} facts`)
    }
  } finally {
    enc.free()
  }
  process.stdout.write(`${stats.join('\n')}\n`)
}

main()
