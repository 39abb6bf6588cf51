import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { answerCount, countCells, isCountRequest } from './main-thread-counter'

/** A thread that counts three texts (one twice) through mainThreadCounting and reports what it got. */
function countingThread(cells: Int32Array): Worker {
  const module = JSON.stringify(join(__dirname, 'main-thread-counter.ts'))
  const code = `
    require('tsx/cjs/api').register()
    const { parentPort, workerData } = require('node:worker_threads')
    const { mainThreadCounting } = require(${module})
    const counting = mainThreadCounting((request) => parentPort.postMessage(request), workerData.cells)
    const count = counting(7, (text) => -text.length)
    parentPort.postMessage({ counts: ['abc', 'abc', 'hello world', 'again'].map(count) })
  `
  return new Worker(code, { eval: true, workerData: { cells } })
}

function run(answer: (text: string, asked: number) => ((text: string) => number) | undefined) {
  const cells = countCells()
  const w = countingThread(cells)
  const asked: string[] = []
  return new Promise<{ counts: number[]; asked: string[] }>((resolve, reject) => {
    w.on('message', (message: unknown) => {
      if (isCountRequest(message)) {
        expect(message.id).toBe(7)
        asked.push(message.count)
        return answerCount(cells, answer(message.count, asked.length), message.count)
      }
      resolve({ counts: (message as { counts: number[] }).counts, asked })
      void w.terminate()
    })
    w.on('error', reject)
  })
}

describe('counting on the main thread for a summary thread', () => {
  it("answers each distinct text once, with the main thread's count", async () => {
    const { counts, asked } = await run(() => (text) => text.length * 10)
    expect(counts).toEqual([30, 30, 110, 50])
    expect(asked).toEqual(['abc', 'hello world', 'again'])
  })

  it('counts on the thread itself from the first question the main thread cannot answer', async () => {
    const { counts, asked } = await run((_, n) => (n === 2 ? undefined : (text) => text.length * 10))
    expect(counts).toEqual([30, 30, -11, -5])
    expect(asked).toEqual(['abc', 'hello world'])
  })
})
