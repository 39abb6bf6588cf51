/**
 * The LoCoMo measurement in one process, for iterating on the engine: the same replay, the same
 * "final" and "asked" scores as `../shared/eval/locomo-recall.mjs` (answer-word recall, the question's own
 * words removed from what it is asked with), without a process per question. Also prints the active
 * summary's tokens per kept fact: its tokens divided by the answer words it alone holds (summed shares).
 *
 *   npx tsx scripts/eval-locomo.ts [--data ../shared/data/locomo-dev] [--convs 26,30] [--window 4096]
 *       [--max-output 512] [--strategies rolling,tiered,importance] [--questions 40|all] [--show-summary]
 *
 * The shared script stays the measure of record; this one is for quick comparisons on a subset.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { get_encoding } from 'tiktoken'
import { createApp } from '../src/main/app'
import { findModel } from '../src/main/cli/count-command'
import { parseOpenAIMessages } from '../src/main/imports/openai-messages'
import { replayConversation } from '../src/main/cli/replay'

const argv = process.argv.slice(2)
const value = (name: string, fallback: string) => {
  const i = argv.indexOf(name)
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : fallback
}
const data = resolve(value('--data', '../shared/data/locomo-dev'))
const convs = value('--convs', '').split(',').filter(Boolean)
const window = Number(value('--window', '4096'))
const maxOutput = Number(value('--max-output', '512'))
const strategies = value('--strategies', 'rolling').split(',') as Array<'rolling' | 'tiered' | 'importance'>
const questions = value('--questions', '40')
const summarizer = value('--summarizer', 'extractive') as 'extractive' | 'llm'
const showSummary = argv.includes('--show-summary')

const enc = get_encoding('o200k_base')
const ntok = (s: string) => enc.encode(s).length
// The shared script's words and stop list, so both score alike.
const STOP = new Set(
  'a an the and or of to in on at for with her his their she he they it is was by from as that this be are were i my me you your we our its has have had did do does not no yes about into than then so what when where who whom which why how'.split(
    ' '
  )
)
const words = (s: unknown) =>
  String(s)
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !STOP.has(w))
function recall(answer: unknown, text: string, minus = new Set<string>()): number {
  const have = new Set(words(text).filter((w) => !minus.has(w)))
  const w = words(answer)
  return w.filter((x) => have.has(x)).length / (w.length || 1)
}

interface Turn {
  speaker: string
  text: string
  blip_caption?: string
}
interface Qa {
  question: string
  answer?: unknown
  category: number
}
type Locomo = Record<string, unknown> & { speaker_a: string; qa: Qa[] }
function conversationMessages(d: Locomo): Array<{ role: string; content: string }> {
  const out: Array<{ role: string; content: string }> = []
  const sessions = Object.keys(d)
    .filter((k) => /^session_\d+$/.test(k) && Array.isArray(d[k]))
    .sort((a, b) => +a.split('_')[1]! - +b.split('_')[1]!)
  for (const s of sessions) {
    const when = d[`${s}_date_time`] as string | undefined
    ;(d[s] as Turn[]).forEach((t, i) => {
      let text = t.text
      if (t.blip_caption) text += ` [shares a photo: ${t.blip_caption}]`
      if (i === 0 && when) text = `(${when}) ${text}`
      out.push({ role: t.speaker === d.speaker_a ? 'user' : 'assistant', content: text })
    })
  }
  return out
}

function truncation(msgs: Array<{ content: string }>, budget: number): string {
  const kept: string[] = []
  let used = 3
  for (let i = msgs.length - 1; i >= 0; i--) {
    const t = ntok(msgs[i]!.content) + 3
    if (used + t > budget) break
    used += t
    kept.unshift(msgs[i]!.content)
  }
  return kept.join('\n')
}

const model = findModel('gpt-4o')
const files = readdirSync(data)
  .filter((f) => f.endsWith('.json') && (convs.length === 0 || convs.includes(f.replace('.json', ''))))
  .sort()
const work = mkdtempSync(join(tmpdir(), 'eval-locomo-'))
const pct = (x: number) => `${(100 * x).toFixed(1)}%`
async function main(): Promise<void> {
  try {
    for (const s of strategies) {
      let q = 0,
        final = 0,
        trunc = 0,
        inSummary = 0,
        summaryTokens = 0,
        asked = 0,
        askedN = 0,
        overflows = 0,
        over = 0,
        maxCtx = 0,
        compressions = 0
      const perConv: string[] = []
      for (const f of files) {
        const d = JSON.parse(readFileSync(join(data, f), 'utf8')) as Locomo
        const qas = d.qa.filter((x) => x.category !== 5 && x.answer !== undefined)
        const raw = conversationMessages(d)
        const messages = parseOpenAIMessages(JSON.stringify(raw))
        const app = createApp({ dbFile: join(work, `${f}.${s}.db`), mode: 'browser', command: 'eval-locomo' })
        try {
          const r = await replayConversation(app, messages, {
            model,
            contextWindow: window,
            maxOutput,
            summarizer,
            strategy: s
          })
          overflows += r.overflows
          compressions += r.compressions
          maxCtx = Math.max(maxCtx, r.maxContextTokens)
          if (r.maxContextTokens + maxOutput > window) over++
          const finalText = r.context.messages.map((m) => m.content).join('\n')
          const summary =
            r.context.messages.find((m) => m.role === 'system' && /Summary of|summary/i.test(m.content))?.content ?? ''
          if (showSummary) console.log(`--- ${f} ${s} summary (${ntok(summary)} tokens)\n${summary}\n`)
          summaryTokens += ntok(summary)
          let convFinal = 0
          const truncText = truncation(raw, r.context.tokens)
          for (const x of qas) {
            q++
            const v = recall(x.answer, finalText)
            final += v
            convFinal += v
            inSummary += recall(x.answer, summary)
            trunc += recall(x.answer, truncText)
          }
          let convAsked = 0,
            convN = 0
          if (questions !== '0') {
            const n = questions === 'all' ? qas.length : Math.min(+questions, qas.length)
            const step = qas.length / n
            for (let i = 0; i < n; i++) {
              const x = qas[Math.floor(i * step)]!
              // As `distill context --message` builds it: after the compression a send would run first.
              const next = await app.services.compression.nextSummary(r.sessionId, x.question)
              const { usage, request: req } = app.services.next.built(r.sessionId, x.question, next)
              if (usage.tokens + maxOutput > window) over++
              const text = [
                req.system ?? '',
                ...req.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
              ].join('\n')
              const v = recall(x.answer, text, new Set(words(x.question)))
              asked += v
              convAsked += v
              askedN++
              convN++
            }
          }
          perConv.push(
            `${f.replace('.json', '')}: final ${pct(convFinal / qas.length)}${convN ? ` asked ${pct(convAsked / convN)}` : ''}`
          )
        } finally {
          await app.close()
        }
      }
      console.log(
        `${s}: final ${pct(final / q)} x${(final / trunc).toFixed(2)}${askedN ? `, asked ${pct(asked / askedN)} (${askedN} q)` : ''}; summary ${summaryTokens} tokens hold ${inSummary.toFixed(1)} answers ` +
          `(${(summaryTokens / Math.max(0.1, inSummary)).toFixed(1)} tokens per kept fact); compressions ${compressions}, overflows ${overflows}, over window ${over}, max ${maxCtx}`
      )
      console.log(`  ${perConv.join('; ')}`)
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
void main()
