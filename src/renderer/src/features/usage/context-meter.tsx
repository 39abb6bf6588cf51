import { useEffect, useId, useRef, useState } from 'react'
import { formatTokens } from '../../lib/format-tokens'
import { useChatStore } from '../../stores/chat/chat-store'
import { useSessionDetails } from '../../stores/sessions-store'
import { useUiStore } from '../../stores/ui-store'
import { useUsageStore } from '../../stores/usage-store'
import { lastReplyLine } from './cost-text'
import { UsageBreakdown } from './usage-breakdown'
import { useChatCost } from './use-chat-cost'
import { isEstimate, percentOf, usageLevel, usageValueText } from './usage-level'
import './context-meter.css'

const HIDE_DELAY_MS = 120

/**
 * The context meter (DESIGN §6): what the next request costs against the usable budget, counted
 * live as the draft changes. Hover or focus shows the breakdown; a click (or Enter) opens the
 * Context inspector.
 */
export function ContextMeter({ sessionId }: { sessionId: string }) {
  const usage = useUsageStore((s) => s.usage[sessionId])
  const draft = useChatStore((s) => s.drafts[sessionId] ?? '')
  const session = useSessionDetails(sessionId)
  const [open, setOpen] = useState(false)
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const countedFor = useRef<string | null>(null)
  const popoverId = useId()
  // What the last reply took, asked for while the popover is open.
  const cost = useChatCost(sessionId, open)

  // At once when the chat opens, then a moment after each keystroke.
  useEffect(() => {
    const first = countedFor.current !== sessionId
    countedFor.current = sessionId
    useUsageStore.getState().refresh(sessionId, { now: first })
  }, [sessionId, draft])

  useEffect(() => () => clearTimeout(hideTimer.current), [])

  function show() {
    clearTimeout(hideTimer.current)
    setOpen(true)
  }

  function inspect() {
    clearTimeout(hideTimer.current)
    setOpen(false)
    useUiStore.getState().setChatDialog('inspector')
  }

  function hideSoon() {
    clearTimeout(hideTimer.current)
    hideTimer.current = setTimeout(() => setOpen(false), HIDE_DELAY_MS)
  }

  if (!usage) {
    return (
      <div className="context-meter context-meter-pending" aria-hidden="true">
        <span className="context-meter-text">–</span>
        <span className="context-meter-track" />
      </div>
    )
  }

  const { tokens, budget, recounting } = usage
  const estimate = isEstimate(usage)
  const level = usageLevel(tokens, budget.usable)
  const fill = percentOf(tokens, budget.usable)
  const threshold = percentOf(budget.threshold, budget.usable)

  return (
    <div className="context-meter-anchor" onMouseEnter={show} onMouseLeave={hideSoon}>
      <div
        role="meter"
        tabIndex={0}
        className="context-meter"
        aria-label="Context usage"
        aria-valuemin={0}
        aria-valuemax={budget.usable}
        aria-valuenow={Math.min(tokens, budget.usable)}
        aria-valuetext={usageValueText(usage)}
        aria-describedby={popoverId}
        data-level={level}
        data-estimate={estimate || undefined}
        data-recounting={recounting || undefined}
        data-prepared={usage.preparedSummary?.state}
        onFocus={show}
        onBlur={hideSoon}
        onClick={inspect}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            event.stopPropagation()
            setOpen(false)
          }
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault()
            inspect()
          }
        }}
      >
        <span className="context-meter-text">
          {estimate && <span className="context-meter-approx">≈</span>}
          {formatTokens(tokens)}
          <span className="context-meter-of"> / {formatTokens(budget.usable)}</span>
          {usage.preparedSummary && (
            <span
              className="context-meter-prepared"
              title={
                usage.preparedSummary.state === 'writing' ? 'Writing the next summary ahead' : 'Next summary ready'
              }
              aria-hidden="true"
            />
          )}
        </span>
        <span className="context-meter-track" aria-hidden="true">
          <span className="context-meter-fill" style={{ width: `${fill}%` }} />
          <span className="context-meter-threshold" style={{ left: `${threshold}%` }} />
        </span>
      </div>
      <div id={popoverId} role="tooltip" className="usage-popover" hidden={!open}>
        <UsageBreakdown usage={usage} session={session} lastReply={lastReplyLine(cost)} />
      </div>
    </div>
  )
}
