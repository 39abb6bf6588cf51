import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** A fresh temporary directory per call, removed after the test. */
export function useTempDir(): () => string {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'distill-test-'))
    dirs.push(dir)
    return dir
  }
}

/** A clock tests move by hand, so ordering by time is deterministic. */
export function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start
  return {
    now: () => now,
    advance(ms: number) {
      now += ms
    }
  }
}
