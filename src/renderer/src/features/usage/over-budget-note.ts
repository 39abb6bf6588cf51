import type { ContextUsage } from '../../../../shared/contract'
import { formatCount } from '../../lib/format-tokens'

/**
 * What happens to a context over the usable budget, in plain words: the next send summarizes
 * first (auto-compression on), or, with it off, the oldest unsummarized messages are left out —
 * said before the send, never discovered after. Null while the context fits.
 */
export function overBudgetNote(
  usage: Pick<ContextUsage, 'tokens' | 'budget' | 'leftOut' | 'compressionDue' | 'draftCut'>
): string | null {
  const over = usage.tokens - usage.budget.usable
  if (over <= 0) return null
  const head = `${formatCount(over)} tokens over the usable budget`
  if (usage.leftOut > 0) {
    const which =
      usage.leftOut === 1
        ? 'the oldest unsummarized message'
        : `the ${formatCount(usage.leftOut)} oldest unsummarized messages`
    return `${head}. Auto-compression is off, so ${which} would be left out of the next request: summarize, or turn auto-compression on, to keep them.`
  }
  if (usage.compressionDue) return `${head}: the next message summarizes older messages first, so nothing is left out.`
  return usage.draftCut > 0
    ? `${head}: the middle of the draft will be cut to fit.`
    : `${head}: older messages must be summarized or the draft shortened.`
}
