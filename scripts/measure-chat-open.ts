/**
 * Times opening a long chat in browser mode: from the click on the chat in the sidebar to its
 * newest message on screen. A measurement, not a test: it prints medians and asserts nothing.
 *
 *   npx electron-vite build
 *   flock /tmp/playwright.lock npx tsx scripts/measure-chat-open.ts [--runs 5] [--count 100000]
 *       [--app out] [--app bench-out/before …] [--cpu-profile DIR] [--trace DIR] [--verbose]
 *       [--screenshots DIR] [--short-first]
 *
 * A baseline build to compare with, e.g. of commit OLD:
 *   git checkout OLD -- src && npx electron-vite build && cp -r out bench-out/before && git checkout HEAD -- src
 *
 * Builds (once, cached in the system's temp folder) a database holding a `--count`-message chat
 * and a 200-message one, imported with `distill import`. Each run starts a fresh `distill serve`
 * (of each `--app`, a copy of an electron-vite `out/` folder kept inside the project so its
 * node_modules resolve; runs of several apps alternate, so they share the machine's load) and a
 * fresh Chromium, then opens: the long chat (first open after server start), the 200-message chat,
 * the long chat again (reopen, already loaded) and the 200-message chat again.
 *
 * Timed inside the page: from the click event's timestamp to the first animation frame in which
 * the newest message's row is inside the message list's view (the frame then paints). The driver's
 * figure (mouse click sent → that answer back, so a few ms of round trips of its own) is printed
 * beside it.
 */
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/support/chromium'

const ROOT = resolve(__dirname, '..')
const argv = process.argv.slice(2)
const values = (name: string): string[] =>
  argv.flatMap((a, i) => (a === name && argv[i + 1] !== undefined ? [argv[i + 1]!] : []))
const runs = Number(values('--runs')[0] ?? 5)
const count = Number(values('--count')[0] ?? 100_000)
const apps = values('--app').length ? values('--app') : ['out']
const profileDir = values('--cpu-profile')[0]
const traceDir = values('--trace')[0]
const verbose = argv.includes('--verbose')
const screenshotDir = values('--screenshots')[0]

const LONG = 'Long chat'
const SHORT = 'Short chat'
const label = (n: number) => `Message ${String(n).padStart(6, '0')}:`

/** Rows as a real chat has them: paragraphs, lists, inline code, now and then a fenced block. */
function text(n: number): string {
  const head = `${label(n)} notes on step ${n} of the plan.`
  switch (n % 5) {
    case 0:
      return `${head}\n\n\`\`\`ts\nexport function step${n}(input: number): number {\n  // keep it short and testable\n  return input * ${n % 97} + ${n % 13}\n}\n\`\`\`\n\nThat is the whole of step ${n}.`
    case 1:
      return `${head}\n\n- first, read the \`config\`\n- then, **check** the totals\n- last, write it down`
    case 2:
      return `${head}\n\nDetail 1 of step ${n}: keep it short and testable.\n\nDetail 2 of step ${n}: see [the notes](https://example.com/notes/${n}).`
    case 3:
      return `${head}\n\n\`\`\`python\ndef step_${n}(rows):\n    return [r * ${n % 89} for r in rows if r > ${n % 7}]\n\`\`\``
    default:
      return head
  }
}

function jsonl(file: string, total: number): void {
  writeFileSync(
    file,
    Array.from({ length: total }, (_, i) =>
      JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: text(i + 1) })
    ).join('\n')
  )
}

/** The database with both chats, built once per chat length. */
function database(): string {
  const dir = join(tmpdir(), 'distill-open-bench')
  const db = join(dir, `chats-${count}.db`)
  if (existsSync(db)) return db
  mkdirSync(dir, { recursive: true })
  const building = join(dir, `building-${count}.db`)
  rmSync(building, { force: true })
  for (const [title, total] of [
    [LONG, count],
    [SHORT, 200]
  ] as const) {
    const file = join(dir, `${title.replace(' ', '-')}-${total}.jsonl`)
    jsonl(file, total)
    console.log(`importing ${total} messages as "${title}"…`)
    execFileSync('npx', ['--no-install', 'distill', '--db', building, 'import', file, '--title', title], {
      cwd: ROOT,
      stdio: 'inherit'
    })
  }
  copyFileSync(building, db)
  return db
}

interface Server {
  url: string
  stop(): Promise<void>
}

/** `distill serve` of one built app folder (its main/cli.js), on its own process group. */
async function serve(app: string, db: string): Promise<Server> {
  const cli = resolve(ROOT, app, 'main', 'cli.js')
  const child = spawn(
    process.execPath,
    ['-e', `require(${JSON.stringify(cli)}).main(process.argv)`, 'distill', '--db', db, 'serve', '--port', '0'],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const url = await new Promise<string>((ok, fail) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const match = /Distill is running at (\S+)/.exec(out)
      if (match) ok(match[1]!)
    })
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${err}`)))
  })
  return {
    url,
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done())
        process.kill(-child.pid!, 'SIGTERM')
      })
  }
}

/**
 * Run in the page (as a string: tsx would wrap named functions in a helper the page lacks): on the
 * next click, checks every animation frame for the row holding `newestLabel` inside the list's view.
 */
const WATCH = `(newestLabel) => {
  window.__opened = new Promise((done) => {
    document.addEventListener('click', (event) => {
      const clicked = event.timeStamp
      window.__clicked = clicked
      performance.clearResourceTimings()
      const check = () => {
        const log = document.querySelector('[role="log"][aria-label="Messages"]')
        const view = log && log.getBoundingClientRect()
        const row = log && [...log.querySelectorAll('.message-row')].find((r) => r.textContent.includes(newestLabel))
        const box = row && row.getBoundingClientRect()
        if (view && box && box.bottom > view.top && box.top < view.bottom && box.height > 0) done(performance.now() - clicked)
        else requestAnimationFrame(check)
      }
      requestAnimationFrame(check)
    }, { capture: true, once: true })
  })
}`

/** Clicks the chat in the sidebar; resolves with [in-page ms, driver ms] once its newest message is in view. */
async function open(page: Page, title: string, newest: string): Promise<[number, number]> {
  await page.evaluate(`(${WATCH})(${JSON.stringify(newest)})`)
  const link = page.getByRole('navigation', { name: 'Chats' }).getByRole('link', { name: new RegExp(title) })
  await link.waitFor()
  // A plain mouse click where the link is: Playwright's own checks before a click (visible, stable
  // for two frames) would count in the driver's figure.
  const box = (await link.boundingBox())!
  const sent = Date.now()
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
  const inPage = await page.evaluate(() =>
    Promise.race([
      (window as unknown as { __opened: Promise<number> }).__opened,
      new Promise<number>((done) => setTimeout(() => done(-1), 20_000))
    ])
  )
  if (inPage < 0) {
    await page.screenshot({ path: join(tmpdir(), 'distill-open-bench', 'stuck.png') })
    throw new Error(`"${title}" did not show ${newest} within 20 s (see stuck.png beside the database)`)
  }
  if (verbose) {
    // The requests the open made, relative to the click: which ones the newest message waited for.
    const requests = await page.evaluate(
      `performance.getEntriesByType('resource').map((e) => e.name.replace(/^.*\\/rpc\\//, '') + ' ' + Math.round(e.startTime - window.__clicked) + '→' + Math.round(e.responseEnd - window.__clicked)).join(', ')`
    )
    if (process.env.MARKS)
      console.log(
        await page.evaluate(
          `performance.getEntriesByType('mark').filter((m) => m.startTime > window.__clicked).map((m) => m.name + '@' + Math.round(m.startTime - window.__clicked)).join(' ')`
        )
      )
    console.log(`  ${title}: shown at ${inPage.toFixed(0)} ms; ${String(requests)}`)
  }
  return [inPage, Date.now() - sent]
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const LONG_FIRST = [
  ['long, first open', LONG, count],
  ['200, first open', SHORT, 200],
  ['long, reopen', LONG, count],
  ['200, reopen', SHORT, 200]
] as const
/** `--short-first`: the 200-message chat is the first the window opens. */
const STEPS = argv.includes('--short-first') ? [LONG_FIRST[1], LONG_FIRST[0], LONG_FIRST[3], LONG_FIRST[2]] : LONG_FIRST

async function main(): Promise<void> {
  const pristine = database()
  const work = join(tmpdir(), 'distill-open-bench', `run-${process.pid}.db`)
  const results = new Map<string, Map<string, Array<[number, number]>>>()
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  try {
    for (let run = 1; run <= runs; run++) {
      for (const app of apps) {
        // The same starting database every run: nothing an earlier run wrote (a meter, a summary) carries over.
        copyFileSync(pristine, work)
        const server = await serve(app, work)
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
        const page = await context.newPage()
        try {
          await page.goto(server.url)
          await page
            .getByRole('navigation', { name: 'Chats' })
            .getByRole('link', { name: new RegExp(LONG) })
            .waitFor()
          // The page settles (fonts, the sidebar's first answers) before the click, as it has when a person clicks.
          await page.waitForTimeout(500)
          const cdp = profileDir || traceDir ? await context.newCDPSession(page) : undefined
          const line: string[] = []
          for (const [step, title, total] of STEPS) {
            const profiling = run === 1 && step === STEPS[0][0]
            if (profiling && profileDir) {
              await cdp!.send('Profiler.enable')
              await cdp!.send('Profiler.setSamplingInterval', { interval: 200 })
              await cdp!.send('Profiler.start')
            }
            if (profiling && traceDir)
              await browser.startTracing(page, {
                path: join(traceDir, `${app.replace(/\W/g, '_')}.json`),
                screenshots: false
              })
            const timing = await open(page, title, label(total))
            if (profiling && profileDir) {
              const { profile } = await cdp!.send('Profiler.stop')
              mkdirSync(profileDir, { recursive: true })
              writeFileSync(join(profileDir, `${app.replace(/\W/g, '_')}.cpuprofile`), JSON.stringify(profile))
            }
            if (profiling && traceDir) await browser.stopTracing()
            const byStep = results.get(app) ?? new Map<string, Array<[number, number]>>()
            results.set(app, byStep)
            byStep.set(step, [...(byStep.get(step) ?? []), timing])
            line.push(`${step} ${timing[0].toFixed(0)}/${timing[1]} ms`)
            await page.waitForTimeout(400)
          }
          console.log(`run ${run} ${app}: ${line.join(', ')}`)
          if (screenshotDir && run === runs) {
            // The long chat as it opens, in both colour schemes.
            await open(page, LONG, label(count))
            mkdirSync(screenshotDir, { recursive: true })
            for (const scheme of ['light', 'dark'] as const) {
              await page.emulateMedia({ colorScheme: scheme })
              await page.waitForTimeout(300)
              await page.screenshot({ path: join(screenshotDir, `${app.replace(/\W/g, '_')}-${scheme}.png`) })
            }
          }
        } finally {
          await context.close()
          await server.stop()
        }
      }
    }
  } finally {
    await browser.close()
    rmSync(work, { force: true })
    for (const suffix of ['-wal', '-shm']) rmSync(work + suffix, { force: true })
  }
  console.log(`\nmedian of ${runs} runs, ms (in page / driver), ${count.toLocaleString('en')}-message chat:`)
  console.log(`| app | ${STEPS.map(([s]) => s).join(' | ')} |`)
  console.log(`|---|${STEPS.map(() => '---:').join('|')}|`)
  for (const [app, byStep] of results) {
    const cells = STEPS.map(([s]) => {
      const xs = byStep.get(s) ?? []
      return `${median(xs.map((x) => x[0])).toFixed(0)} / ${median(xs.map((x) => x[1])).toFixed(0)}`
    })
    console.log(`| ${app} | ${cells.join(' | ')} |`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
