// The sidebar's first screen at 5,000 chats (1M messages): sessions.list's first page (what the
// sidebar asks for) beside every chat in one answer (the list before paging), and a later page.
// `npx vitest bench --run bench/session-list.bench.ts`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { createApp, type App } from '../src/main/app'
import { insertImportedMessages } from '../src/main/db/repositories/imports-repo'
import { updateSession } from '../src/main/db/repositories/sessions-repo'
import { silentLogger } from '../src/main/logger'
import { fmtMs, goalLine } from './goal'
import { isMeasuring, warmedUp } from './measured'

const CHATS = 5_000
const PER_CHAT = 200
const GOAL_MS = 16

let app: App
let dir: string
/** The cursor of the page at the middle of the list (a reader far down the sidebar). */
let middle: string

/** The newest message of each chat: real text, the sidebar's preview. */
const newest = [{ type: 'text' as const, text: 'Here is how the pieces fit together. '.repeat(40) }]

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'distill-session-list-bench-'))
  app = createApp({ dbFile: join(dir, 'bench.db'), mode: 'browser', log: silentLogger, env: {} })
  for (let c = 0; c < CHATS; c++) {
    const session = app.services.sessions.create(`chat ${c}`)
    app.database.db.transaction((tx) => {
      // The list reads each chat's count from an index and the text of its newest message only: the
      // messages before it are short, which keeps this setup to a minute and a half (with the
      // fixture's long texts it took four) and the work measured the same.
      insertImportedMessages(
        tx,
        session.id,
        (function* () {
          for (let i = 0; i < PER_CHAT; i++)
            yield {
              id: `${session.id}-${i}`,
              role: i % 2 ? ('assistant' as const) : ('user' as const),
              parts: i === PER_CHAT - 1 ? newest : [{ type: 'text' as const, text: `Message ${i} of chat ${c}.` }],
              createdAt: i,
              tokenCount: 10,
              tokenCounter: 'chars/4'
            }
        })()
      )
      // Activity spread over a year, as a real sidebar's chats are.
      updateSession(tx, session.id, { updatedAt: 1_700_000_000_000 + c * 6_000_000 })
    })
  }
  let cursor: string | null = null
  for (let p = 0; p < CHATS / 200; p++)
    cursor = app.services.sessions.page({ cursor: cursor ?? undefined, limit: 100 }).nextCursor
  middle = cursor!
}, 900_000)

const timings = new Map<string, number[]>()
/** Times what the renderer waits for: the route's answer, serialized as the transport sends it. */
async function timed(label: string, fn: () => unknown): Promise<void> {
  const t0 = performance.now()
  JSON.stringify(await fn())
  if (isMeasuring()) timings.set(label, [...(timings.get(label) ?? []), performance.now() - t0])
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const few = warmedUp({ time: 0, iterations: 15, warmupIterations: 3, warmupTime: 0 })

describe(`the sidebar at ${CHATS.toLocaleString('en')} chats`, () => {
  // Seconds a run, steady within a few percent: three runs after one warm-up.
  bench('baseline: every chat in one answer', async () => timed('all', () => app.services.sessions.list()), {
    ...few,
    iterations: 3,
    warmupIterations: 1
  })
  bench('paged: sessions.list, first page', async () => timed('first', () => app.router.call('sessions.list', {})), few)
  bench(
    'paged: sessions.list, a page at the middle',
    async () => timed('middle', () => app.router.call('sessions.list', { cursor: middle })),
    few
  )
})

// Closing checkpoints the WAL of a million rows written above: longer than the default 10 s.
afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
  const m = (k: string) => median(timings.get(k) ?? [])
  const row = (label: string, key: string) =>
    `  ${label.padEnd(44)} ${fmtMs(m(key)).padStart(10)}   ${(m('all') / m(key)).toFixed(1).padStart(7)}x vs all`
  console.log(
    [
      '',
      `The sidebar's chat list, ${CHATS.toLocaleString('en')} chats of ${PER_CHAT} messages (median, answer serialized)`,
      row('every chat in one answer (baseline)', 'all'),
      row('sessions.list, first page (100)', 'first'),
      row('sessions.list, a page at the middle (100)', 'middle'),
      goalLine('a page of the sidebar', GOAL_MS, [
        ['first page', m('first')],
        ['middle page', m('middle')]
      ]),
      ''
    ].join('\n')
  )
}, 300_000)
