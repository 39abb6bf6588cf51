/**
 * Entry of the worker thread that copies the database's write-ahead log back into the file (see
 * checkpoint-thread.ts). Built as its own file beside the bundle (electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openSecondConnection } from '../../db/repositories/restore-repo'

const data = workerData as { role?: string; file?: string } | undefined
if (parentPort && data?.role === 'distill-checkpoint' && data.file) {
  const port = parentPort
  const { checkpoint, close } = openSecondConnection(data.file)
  port.on('message', (message: 'checkpoint' | 'close') => {
    if (message === 'close') {
      close()
      port.close()
      return
    }
    try {
      checkpoint()
      port.postMessage('done')
    } catch (err) {
      port.postMessage(`failed: ${(err as Error).message}`)
    }
  })
}
