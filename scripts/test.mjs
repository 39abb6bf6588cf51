// `npm test`: typecheck, lint, unit + integration (Vitest, real SQLite), then e2e (Playwright).
import { spawnSync } from 'node:child_process'

const steps = [
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
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
