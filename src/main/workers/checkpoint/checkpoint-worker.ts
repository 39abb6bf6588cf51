/**
 * Entry of the worker thread that copies the database's write-ahead log back into the file and
 * writes the long messages the app hands it (see checkpoint-thread.ts). Built as its own file
 * beside the bundle (electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openSecondConnection } from '../../db/repositories/restore-repo'
import type { ThreadAnswer, ThreadRequest } from './checkpoint-protocol'

const data = workerData as { role?: string; file?: string } | undefined
if (parentPort && data?.role === 'distill-checkpoint' && data.file) {
  const port = parentPort
  const { checkpoint, append, close } = openSecondConnection(data.file)
  port.on('message', (request: ThreadRequest) => {
    if (request === 'close') {
      close()
      port.close()
      return
    }
    if (request === 'checkpoint') {
      try {
        checkpoint()
        port.postMessage('done' satisfies ThreadAnswer)
      } catch (err) {
        port.postMessage(`failed: ${(err as Error).message}` satisfies ThreadAnswer)
      }
      return
    }
    try {
      port.postMessage({ appended: request.append.id, message: append(request.append) } satisfies ThreadAnswer)
    } catch (err) {
      port.postMessage({ appended: request.append.id, error: (err as Error).message } satisfies ThreadAnswer)
    }
  })
}
