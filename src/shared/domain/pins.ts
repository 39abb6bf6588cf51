/** The sentence a refused pin shows. */
export function pinRefusal(percent: number, limit: number): string {
  return `Pinned messages would take ${percent}% of this chat's context; the limit is ${limit}%. Unpin one or raise the limit in Settings.`
}

/** Said where the pins already pass the limit (a smaller window since they were pinned): they are still sent. */
export function pinsOverLimit(percent: number, limit: number): string {
  return `Pinned messages take ${percent}% of this chat's context, over the ${limit}% limit (the window is smaller than when they were pinned). They are still sent in every request; unpin one to make room.`
}
