/** The sentence a refused pin shows. */
export function pinRefusal(percent: number, limit: number): string {
  return `Pinned messages would take ${percent}% of this chat's context; the limit is ${limit}%. Unpin one or raise the limit in Settings.`
}

/** Said where the pins already pass the limit (a smaller window since they were pinned): they are still sent. */
export function pinsOverLimit(percent: number, limit: number): string {
  return `Pinned messages take ${percent}% of this chat's context, over the ${limit}% limit (the window is smaller than when they were pinned). They are still sent in every request; unpin one to make room.`
}

/** The meter's and the inspector's line about a chat's pins. */
export function pinsNote(pins: { count: number; percent: number; limit: number }): string {
  if (pins.percent > pins.limit) return pinsOverLimit(pins.percent, pins.limit)
  const what = pins.count === 1 ? '1 pinned message takes' : `${pins.count} pinned messages take`
  return `${what} ${pins.percent}% of this chat's context (limit ${pins.limit}%), sent word for word in every request.`
}
