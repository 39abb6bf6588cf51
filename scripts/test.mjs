// `npm test`: typecheck, lint, the formatter's check, build, unit + integration (Vitest, real SQLite), then e2e (Playwright).
// The build comes before the unit tests because the command-line tests run the built `npx distill`;
// scripts/e2e.mjs then finds it up to date and does not build again.
import { spawnSync } from 'node:child_process'

const steps = [
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
  ['format', 'npm', ['run', '-s', 'format:check']],
  ['build', 'npx', ['electron-vite', 'build']],
  ['unit and integration', 'npm', ['run', '-s', 'test:unit']],
  ['launcher scripts', 'node', ['--test', 'scripts/lib/']],
  ['end to end', 'npm', ['run', '-s', 'test:e2e']]
]
for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}`)
  const started = Date.now()
  const r = spawnSync(cmd, args, { stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`\n✗ ${name} failed`)
    process.exit(r.status ?? 1)
  }
  console.log(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
