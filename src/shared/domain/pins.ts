/** The sentence a refused pin shows. */
export function pinRefusal(percent: number, limit: number): string {
  return `Pinned messages would take ${percent}% of this chat's context; the limit is ${limit}%. Unpin one or raise the limit in Settings.`
}

/** Said where the pins already pass the limit (a smaller window since they were pinned): they are still sent. */
export function pinsOverLimit(percent: number, limit: number): string {
  return `Pinned messages take ${percent}% of this chat's context, over the ${limit}% limit (the window is smaller than when they were pinned). They are still sent in every request; unpin one to make room.`
}

/** Said where the pins are more than the window can carry: their middle goes cut, never silently. */
export function pinsCut(percent: number, cutTokens: number): string {
  return `Pinned messages take ${percent}% of this chat's context, more than this model's window can carry: about ${cutTokens.toLocaleString('en-US')} tokens from their middle are left out of every request. Unpin one, or choose a model with a larger window.`
}

/** The meter's and the inspector's line about a chat's pins. */
export function pinsNote(pins: { count: number; percent: number; limit: number; cutTokens?: number }): string {
  if (pins.cutTokens) return pinsCut(pins.percent, pins.cutTokens)
  if (pins.percent > pins.limit) return pinsOverLimit(pins.percent, pins.limit)
  const what = pins.count === 1 ? '1 pinned message takes' : `${pins.count} pinned messages take`
  return `${what} ${pins.percent}% of this chat's context (limit ${pins.limit}%), sent word for word in every request.`
}
