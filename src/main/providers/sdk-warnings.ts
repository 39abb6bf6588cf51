import type { Warning } from 'ai'

/** Warnings already logged: one line per provider, model and kind for the life of the process. */
const seen = new Set<string>()

function describe(w: Warning): string {
  return w.type === 'other' ? w.message : `${w.type} ${w.feature}${w.details ? `: ${w.details}` : ''}`
}

/**
 * The AI SDK logs its warnings (a setting a model ignores, a compatibility mode) on every call, so
 * a chat's summaries filled the log with the same line. Each is logged once instead, in Distill's
 * log format; `write` is where it goes (stderr by default, which the desktop app's log captures).
 */
export function logSdkWarningsOnce(write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  globalThis.AI_SDK_LOG_WARNINGS = ({
    warnings,
    provider,
    model
  }: {
    warnings: Warning[]
    provider: string
    model: string
  }) => {
    for (const w of warnings) {
      const line = `[distill] warn AI SDK (${provider}, ${model}): ${describe(w)}`
      if (seen.has(line)) continue
      seen.add(line)
      write(line)
    }
  }
}
