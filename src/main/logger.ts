import type { Logger } from './services/service-deps'

/** Logs to stderr with a level prefix; stdout stays clean for the CLI's JSON. */
export function createConsoleLogger(quiet = false): Logger {
  const write = (level: string, message: string, extra?: unknown) => {
    const detail =
      extra instanceof Error ? (extra.stack ?? extra.message) : extra === undefined ? '' : JSON.stringify(extra)
    process.stderr.write(`[distill] ${level} ${message}${detail ? ` ${detail}` : ''}\n`)
  }
  return {
    info: (m, e) => {
      if (!quiet) write('info', m, e)
    },
    warn: (m, e) => write('warn', m, e),
    error: (m, e) => write('error', m, e)
  }
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} }
