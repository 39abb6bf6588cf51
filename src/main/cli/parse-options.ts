import { readFileSync } from 'node:fs'
import { InvalidArgumentError } from 'commander'
import { AppError } from '../../shared/app-error'

export function parsePort(value: string): number {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('Use a port number between 0 and 65535.')
  }
  return port
}

export function parsePositiveInt(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('Use a positive whole number.')
  return n
}

/** A message given as a file (`-`: standard input), for messages too long or too awkward for an argument. */
export function readMessageFile(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (err as Error).message
    throw new AppError(
      'invalid_input',
      `Cannot read the message from ${file === '-' ? 'standard input' : file}: ${reason}.`
    )
  }
}
