// Opening the app: `node bin/distill.cjs serve` (what `npx distill serve` runs) on a new database,
// timed from the spawn to the line with its address, then its resident memory after a few idle
// seconds, and again once a page has been served and the warm-up after it (the tokenizers, the
// newest chat) has run. `npx vitest bench --run bench/startup.bench.ts`. Figures only: the goal
// line reads them, nothing fails on them.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, bench, describe } from 'vitest'
import { fmtMs, goalLine } from './goal'

const ROOT = join(__dirname, '..')
const RUNS = Number(process.env.STARTUP_RUNS ?? 5)
const IDLE_MS = 3000

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Resident memory of a process, in MB, as the kernel counts it. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

const figures = { address: [] as number[], idle: [] as number[], served: [] as number[] }

/** One open: spawn, address, idle memory, a page and the API's first call, memory after the warm-up. */
async function openOnce(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'distill-startup-bench-'))
  const started = performance.now()
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'distill.cjs'), 'serve', '--db', join(dir, 'distill.db')], {
    cwd: ROOT,
    env: { ...process.env, XDG_DATA_HOME: dir, DISTILL_NO_UPDATE_CHECK: '1' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  try {
    const url = await new Promise<URL>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += String(d)
        const found = /Distill is running at (\S+)/.exec(out)
        if (found) resolve(new URL(found[1]!))
      })
      child.on('exit', (code) => reject(new Error(`distill serve exited (${code}) before its address`)))
    })
    figures.address.push(performance.now() - started)
    await pause(IDLE_MS)
    figures.idle.push(rssMb(child.pid!))
    const token = url.hash.replace('#token=', '')
    await (await fetch(new URL('/', url))).text()
    await (
      await fetch(new URL('/rpc/sessions.list', url), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}'
      })
    ).text()
    await pause(IDLE_MS)
    figures.served.push(rssMb(child.pid!))
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)))
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('opening the app', () => {
  bench(
    `distill serve: spawn → address, then memory idle and after the first page (${RUNS} runs)`,
    async () => {
      // Not counted: the first run builds the app when the build is older than the sources.
      await openOnce()
      figures.address.length = figures.idle.length = figures.served.length = 0
      for (let i = 0; i < RUNS; i++) await openOnce()
    },
    { time: 0, iterations: 1, warmupIterations: 0, warmupTime: 0 }
  )
})

afterAll(() => {
  const mb = (x: number) => `${x.toFixed(0)} MB`
  console.log(
    [
      '',
      `Opening the app: \`node bin/distill.cjs serve\` on a new database (median of ${figures.address.length} runs; min–max)`,
      `  spawn → address        ${fmtMs(median(figures.address))}  (${fmtMs(Math.min(...figures.address))}–${fmtMs(Math.max(...figures.address))})`,
      `  resident, ${IDLE_MS / 1000} s idle      ${mb(median(figures.idle))}  (${mb(Math.min(...figures.idle))}–${mb(Math.max(...figures.idle))})`,
      `  resident, page served  ${mb(median(figures.served))}  (${mb(Math.min(...figures.served))}–${mb(Math.max(...figures.served))}; the tokenizers loaded after it)`,
      goalLine('serve → address', 1000, [['median', median(figures.address)]]),
      `  Goal idle memory < 130 MB: ${median(figures.idle) < 130 ? 'met' : 'NOT met'} (${mb(median(figures.idle))})`,
      ''
    ].join('\n')
  )
})
