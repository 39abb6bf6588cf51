import type { ChatCost, TokenUsage } from '../../../../shared/contract'
import { formatCount } from '../../lib/format-tokens'
import { approxUsd, cacheSavedUsd, chatTotal, uncachedTokens } from './cost-text'
import { useChatCost } from './use-chat-cost'
import './cost-details.css'

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`
}

/** One line under "Cost" while it is folded: the chat's price, or its cache share where prices are unknown. */
function brief(cost: ChatCost, total: TokenUsage): string {
  if (total.requests === 0) return 'No reply has reported its usage yet.'
  const saved = cacheSavedUsd(cost)
  const savedText = saved === null ? '' : ` · the cache saved ${approxUsd(saved)}`
  if (total.costUsd !== null) return `This chat ${approxUsd(total.costUsd)}${savedText}`
  if (!cost.cacheReported) return `This chat: ${plural(total.inputTokens, 'input token', 'input tokens')}`
  return `This chat: ${formatCount(total.cacheReadTokens)} of ${plural(total.inputTokens, 'input token', 'input tokens')} from the cache`
}

/**
 * The inspector's "Cost", folded to one line: what the last reply and the whole chat took as the
 * providers reported it (read from the prompt cache, written to it, uncached, output) and about what
 * it cost at the chat model's prices, model summaries included in the chat.
 */
export function CostDetails({ sessionId }: { sessionId: string }) {
  const cost = useChatCost(sessionId, true)
  if (!cost) return null
  const total = chatTotal(cost)
  const last = cost.lastReply
  const reported = cost.cacheReported
  const { summaries, replies } = cost
  const cache = (n: number | undefined) => (n === undefined ? '' : reported ? formatCount(n) : '—')
  const tokens = (n: number | undefined) => (n === undefined ? '' : formatCount(n))
  const price = (u: TokenUsage | null) => (u && u.costUsd !== null ? approxUsd(u.costUsd) : '—')
  const priced = total.costUsd !== null || (last?.costUsd ?? null) !== null

  return (
    <details className="cost-details">
      <summary className="cost-summary">
        <span className="cost-title">Cost</span>
        <span className="cost-brief">{brief(cost, total)}</span>
      </summary>
      {total.requests > 0 && (
        <>
          <table className="inspector-table cost-table">
            <caption className="sr-only">Input and output tokens of the last reply and of the whole chat</caption>
            <thead>
              <tr>
                <th scope="col">Tokens</th>
                <th scope="col" className="num">
                  Last reply
                </th>
                <th scope="col" className="num">
                  This chat
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">From the cache</th>
                <td className="num">{cache(last?.cacheReadTokens)}</td>
                <td className="num">{cache(total.cacheReadTokens)}</td>
              </tr>
              <tr>
                <th scope="row">Written to the cache</th>
                <td className="num">{cache(last?.cacheWriteTokens)}</td>
                <td className="num">{cache(total.cacheWriteTokens)}</td>
              </tr>
              <tr>
                <th scope="row">Uncached input</th>
                <td className="num">{tokens(last ? uncachedTokens(last) : undefined)}</td>
                <td className="num">{tokens(uncachedTokens(total))}</td>
              </tr>
              <tr>
                <th scope="row">Output</th>
                <td className="num">{tokens(last?.outputTokens)}</td>
                <td className="num">{tokens(total.outputTokens)}</td>
              </tr>
              {priced && (
                <tr className="inspector-total">
                  <th scope="row">Price at {cost.modelLabel} prices</th>
                  <td className="num">{price(last)}</td>
                  <td className="num">{price(total)}</td>
                </tr>
              )}
            </tbody>
          </table>
          <ul className="usage-notes inspector-notes cost-notes">
            <li>
              {`This chat: ${plural(replies.requests, 'reply', 'replies')}`}
              {summaries.requests > 0
                ? ` and ${plural(summaries.requests, 'model summary', 'model summaries')} (${formatCount(
                    summaries.inputTokens
                  )} input and ${formatCount(summaries.outputTokens)} output tokens${
                    summaries.costUsd !== null ? `, ${approxUsd(summaries.costUsd)}` : ''
                  }), counted in its total.`
                : '.'}
            </li>
            {!priced && <li>Distill does not know {cost.modelLabel}’s prices, so it shows no price.</li>}
            {!reported && <li>The provider did not report its cache: all input is counted as uncached.</li>}
          </ul>
        </>
      )}
    </details>
  )
}
