import { existsSync } from 'node:fs'

/** Debian's Chromium (never a Playwright download): CHROMIUM_PATH, else /usr/bin/chromium. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  return candidates.find((p): p is string => !!p && existsSync(p))
}

/** Flags for a closed network: no background calls to hosts that cannot be reached. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
]
