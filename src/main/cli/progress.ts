import { SingleBar, Presets } from 'cli-progress'

/** A progress bar on a terminal (stderr, so JSON on stdout stays clean); nothing otherwise. */
export function progressBar(label: string): { update(done: number, total: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { update() {}, stop() {} }
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} messages | {eta_formatted} left`,
      stream: process.stderr,
      hideCursor: true
    },
    Presets.shades_classic
  )
  let started = false
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0)
        started = true
      }
      bar.update(done)
    },
    stop() {
      if (started) bar.stop()
    }
  }
}
