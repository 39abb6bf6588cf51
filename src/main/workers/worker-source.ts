import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Where a worker thread's code is: beside the bundle (out/main, or one folder up from a chunk) or,
 * run from source (tests, tsx), the .ts file in `dir` (the caller's folder), compiled on load by tsx
 * registered in the thread.
 */
export function workerSource(dir: string, name: string): { code: string; eval: boolean } | undefined {
  if (__filename.endsWith('.ts')) {
    const file = join(dir, `${name}.ts`)
    return { code: `require('tsx/cjs/api').register(); require(${JSON.stringify(file)})`, eval: true }
  }
  const file = [join(__dirname, `${name}.js`), join(__dirname, '..', `${name}.js`)].find((f) => existsSync(f))
  return file ? { code: file, eval: false } : undefined
}
