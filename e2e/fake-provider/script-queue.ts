import { defaultReply, lastUserText, splitEvenly, splitWords } from './reply'
import { type ChatMessage, type Fault, type ScriptStep } from './types'

const FAULTS: readonly Fault[] = ['http401', 'http429', 'http500', 'stall', 'cut']

/** Magic phrases let a human trigger faults from the app's own composer, no scripting needed. */
const MAGIC = /\[fake:(401|429|500|stall|cut|slow)\]/i
const MAGIC_FAULT: Record<string, Fault> = {
  '401': 'http401',
  '429': 'http429',
  '500': 'http500',
  stall: 'stall',
  cut: 'cut'
}

/** What the server will do for one generation request. */
export interface Plan {
  reply: string
  chunks: string[]
  fault?: Fault
  retryAfterSeconds: number
  delayMs: number
  usage?: { input?: number; output?: number }
}

/** FIFO of scripted steps shared by every provider endpoint. */
export class ScriptQueue {
  private steps: ScriptStep[] = []

  push(steps: ScriptStep[]): void {
    this.steps.push(...steps.map((s) => ({ ...s })))
  }

  next(): ScriptStep | undefined {
    return this.steps.shift()
  }

  clear(): void {
    this.steps = []
  }

  get pending(): number {
    return this.steps.length
  }
}

function isNonNegative(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0
}

/** Validates steps arriving over HTTP (POST /__script); throws with a readable message. */
export function parseSteps(input: unknown): ScriptStep[] {
  const list = Array.isArray(input) ? input : (input as { steps?: unknown } | null)?.steps
  if (!Array.isArray(list)) throw new Error('expected an array of steps or {"steps": [...]}')
  return list.map((raw, i) => {
    if (raw == null || typeof raw !== 'object') throw new Error(`step ${i}: expected an object`)
    const s = raw as Record<string, unknown>
    const bad = (field: string): never => {
      throw new Error(`step ${i}: invalid ${field}`)
    }
    if (s.for !== undefined && s.for !== 'reply' && s.for !== 'title' && s.for !== 'summary')
      bad('for (reply, title or summary)')
    if (s.reply !== undefined && typeof s.reply !== 'string') bad('reply')
    if (s.chunks !== undefined && !(Array.isArray(s.chunks) && s.chunks.every((c) => typeof c === 'string')))
      bad('chunks')
    if (s.fault !== undefined && !FAULTS.includes(s.fault as Fault)) bad(`fault (one of ${FAULTS.join(', ')})`)
    if (s.retryAfterSeconds !== undefined && !isNonNegative(s.retryAfterSeconds)) bad('retryAfterSeconds')
    if (s.delayMs !== undefined && !isNonNegative(s.delayMs)) bad('delayMs')
    if (s.usage !== undefined) {
      const u = s.usage as Record<string, unknown> | null
      if (u == null || typeof u !== 'object') bad('usage')
      if (u?.input !== undefined && !isNonNegative(u.input)) bad('usage.input')
      if (u?.output !== undefined && !isNonNegative(u.output)) bad('usage.output')
    }
    return s as ScriptStep
  })
}

/** A scripted step wins outright; otherwise a magic phrase in the last user message; otherwise the echo reply. */
export function resolvePlan(step: ScriptStep | undefined, messages: ChatMessage[]): Plan {
  let plan: Plan
  if (step) {
    const reply = step.chunks ? step.chunks.join('') : (step.reply ?? defaultReply(messages))
    plan = {
      reply,
      chunks: step.chunks ? [...step.chunks] : splitWords(reply),
      fault: step.fault,
      retryAfterSeconds: step.retryAfterSeconds ?? 1,
      delayMs: step.delayMs ?? 0,
      usage: step.usage
    }
  } else {
    const reply = defaultReply(messages)
    const magic = MAGIC.exec(lastUserText(messages))?.[1]?.toLowerCase()
    plan = { reply, chunks: splitWords(reply), retryAfterSeconds: 1, delayMs: 0 }
    if (magic === 'slow') {
      plan.reply = reply.padEnd(40, '.')
      plan.chunks = splitEvenly(plan.reply, 40)
      plan.delayMs = 50
    } else if (magic) {
      plan.fault = MAGIC_FAULT[magic]
    }
  }
  // A cut needs something delivered before the cut and something withheld after it.
  if (plan.fault === 'cut' && plan.chunks.length < 2) plan.chunks = splitEvenly(plan.reply.padEnd(2, '.'), 2)
  if (plan.fault === 'cut') plan.reply = plan.chunks.join('')
  return plan
}
