import { vi } from 'vitest'
import { buildProgram } from '../../src/main/cli'

/** Runs `distill …` in this process and returns what it printed on stdout. */
export async function runCli(...args: string[]): Promise<string> {
  let out = ''
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk)
    return true
  })
  try {
    await buildProgram()
      .exitOverride()
      .parseAsync(['node', 'distill', ...args])
  } finally {
    write.mockRestore()
  }
  return out
}
