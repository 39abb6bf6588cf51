import { storedPartsReader } from '../../db/repositories/messages/message-parts-repo'
import { plainText } from '../../tokens/render'

/**
 * Reads messages' text on the worker thread from the stored parts (see storedPartsReader), so the main
 * thread neither loads nor copies a long span's text. The text is the one the conversation reader
 * derives (plainText of the stored parts).
 */
export function messageTextReader(dbFile: string) {
  const readParts = storedPartsReader(dbFile)
  return (ids: string[]): Map<string, string> => new Map(readParts(ids).map((m) => [m.id, plainText(m)]))
}
