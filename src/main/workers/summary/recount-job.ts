import type { StoredParts } from '../../db/repositories/messages/message-parts-repo'
import type { ModelSpec } from '../../models/catalog'
import { countMessage } from '../../tokens/message-tokens'

/** Messages to count again for a chat's new model (a recount after a model switch), by id. */
export interface RecountJob {
  spec: ModelSpec
  ids: string[]
}

export interface Recounted {
  id: string
  tokens: number
  counter: string
}

/** Counts each message as the conversation counts it (countMessage), reading its parts by id. */
export function runRecountJob(job: RecountJob, readParts: (ids: string[]) => StoredParts[]): Recounted[] {
  return readParts(job.ids).map((m) => {
    const { tokens, counter } = countMessage({ role: m.role, parts: m.parts }, job.spec)
    return { id: m.id, tokens, counter }
  })
}
