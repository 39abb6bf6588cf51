import { closeSync, createReadStream, openSync, readSync } from 'node:fs'
import { JSONParser } from '@streamparser/json'
import { parseChatGPTConversation, type ImportedConversation } from '../imports/chatgpt-export'
import { ImportError } from '../imports/openai-messages'

/** The file's first characters (a byte-order mark dropped), to tell formats apart without reading it whole. */
export function fileStart(file: string, bytes = 64 * 1024): string {
  const fd = openSync(file, 'r')
  try {
    const buffer = Buffer.alloc(bytes)
    const read = readSync(fd, buffer, 0, bytes, 0)
    return buffer
      .subarray(0, read)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
  } finally {
    closeSync(fd)
  }
}

/**
 * True when the file starts like ChatGPT's conversations.json: an array whose first conversation
 * has a `mapping` (its fourth key in every export seen). A file that starts otherwise is read whole.
 */
export function startsLikeChatGPTExport(file: string): boolean {
  const start = fileStart(file)
  return /^\s*\[\s*\{/.test(start) && start.includes('"mapping"')
}

/**
 * The conversations of a ChatGPT export, parsed one at a time as the file is read: memory stays
 * flat in the file's size (a heavy user's export passes 1 GB) instead of holding the text, its
 * parse and every conversation at once. Invalid JSON is an ImportError naming what is wrong.
 */
export async function* readChatGPTExport(file: string): AsyncGenerator<ImportedConversation> {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false })
  const ready: unknown[] = []
  let failure: Error | undefined
  parser.onValue = ({ value }) => ready.push(value)
  parser.onError = (err) => (failure ??= err)
  let index = 0
  const drain = function* () {
    if (failure) throw new ImportError(`The file is not valid JSON: ${failure.message}`)
    for (const value of ready.splice(0)) yield parseChatGPTConversation(value, index++)
  }
  // 256 KB at a time: the parser takes ~10 ms of the event loop per chunk this size.
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 18 })) {
    parser.write(chunk as Buffer)
    yield* drain()
  }
  if (!parser.isEnded) parser.end()
  yield* drain()
}
