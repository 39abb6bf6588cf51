import { formatFull, formatRelative } from '../lib/relative-time'
import { useNow } from '../lib/use-now'

/** "5 min", with the full date as tooltip and machine-readable datetime. */
export function RelativeTime({ timestamp, className, id }: { timestamp: number; className?: string; id?: string }) {
  const now = useNow()
  return (
    <time id={id} className={className} dateTime={new Date(timestamp).toISOString()} title={formatFull(timestamp)}>
      {formatRelative(timestamp, now)}
    </time>
  )
}
