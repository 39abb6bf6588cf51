const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const dayMonth = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })
const dayMonthYear = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short' })
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' })
const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' })

/** Short, sidebar-sized: "now", "5 min", "3 h", "Mon", "Mar 12", "Mar 12, 2023". */
export function formatRelative(timestamp: number, now: number): string {
  const diff = now - timestamp
  if (diff < MINUTE) return 'now'
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} min`
  if (diff < DAY) return `${Math.floor(diff / HOUR)} h`
  if (diff < 7 * DAY) return weekday.format(timestamp)
  const sameYear = new Date(timestamp).getFullYear() === new Date(now).getFullYear()
  return (sameYear ? dayMonth : dayMonthYear).format(timestamp)
}

/** For tooltips: "Tuesday, March 12, 2024 at 3:04 PM". */
export function formatFull(timestamp: number): string {
  return full.format(timestamp)
}

/** For message stamps: "3:04 PM". */
export function formatClock(timestamp: number): string {
  return clock.format(timestamp)
}
