import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { AppError } from '../../../shared/app-error'

/** Encrypts secrets at rest; Electron supplies one backed by the OS keychain (safeStorage). */
export interface SecretCipher {
  readonly name: string
  encrypt(plain: string): Buffer
  decrypt(data: Buffer): string
}

export interface SecretStore {
  get(name: string): string | undefined
  set(name: string, value: string): void
  delete(name: string): void
  /** How secrets are protected, in words for the Settings page. */
  readonly protection: string
  /** Why stored keys are unavailable (a damaged file, set aside), in words for the user; null when they are. */
  problem?(): string | null
}

/**
 * `values` are protected by `cipher` (null: plain). Values this process could not read, because
 * another cipher encrypted them (the desktop app's keychain, seen from browser mode), are kept
 * as they are under `other[cipherName]`, so the process that can read them still finds them.
 */
interface SecretsFile {
  version: 1
  cipher: string | null
  values: Record<string, string>
  other?: Record<string, Record<string, string>>
}

const isStrings = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')

function isSecretsFile(data: unknown): data is SecretsFile {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false
  const d = data as Partial<SecretsFile>
  return (
    (d.values === undefined || isStrings(d.values)) &&
    (d.cipher === undefined || d.cipher === null || typeof d.cipher === 'string') &&
    (d.other === undefined ||
      (typeof d.other === 'object' && d.other !== null && Object.values(d.other).every(isStrings)))
  )
}

interface Entry {
  cipher: string | null
  value: string
}

/**
 * API keys in a file only the user can read (mode 0600), encrypted with the OS keychain where
 * Electron offers it. Written atomically, so a crash never leaves half a file. A key this process
 * cannot decrypt is never dropped: saving another key rewrites the file with that entry as it was.
 */
export function createFileSecretStore(file: string, cipher?: SecretCipher, now: () => number = Date.now): SecretStore {
  const own = cipher?.name ?? null
  let problem: string | null = null
  /** Set when a damaged file could not be moved aside: writing would destroy it. */
  let stuck = false

  /**
   * A file that is not the store's JSON is moved aside untouched (the user may still recover keys
   * from it) and the store starts empty, so every key reads as not set instead of every call failing.
   */
  function setAside(reason: string): void {
    const aside = `${file}.damaged-${new Date(now()).toISOString().replace(/[:.]/g, '-')}`
    try {
      renameSync(file, aside)
      problem = `Your saved API keys could not be read: ${basename(file)} is damaged (${reason}). It was kept unchanged as ${aside}. Enter your keys again in Settings.`
    } catch {
      stuck = true
      problem = `Your saved API keys could not be read: ${file} is damaged (${reason}) and could not be moved aside. Move or repair it, then restart Distill.`
    }
  }

  const parse = (): SecretsFile | undefined => {
    if (!existsSync(file)) return undefined
    let data: unknown
    try {
      data = JSON.parse(readFileSync(file, 'utf8'))
    } catch (err) {
      setAside(err instanceof SyntaxError ? 'not valid JSON' : err instanceof Error ? err.message : String(err))
      return undefined
    }
    if (!isSecretsFile(data)) {
      setAside('not a Distill secrets file')
      return undefined
    }
    return data
  }

  const read = (): Map<string, Entry[]> => {
    const entries = new Map<string, Entry[]>()
    const data = stuck ? undefined : parse()
    if (!data) return entries
    const add = (name: string, entry: Entry) => entries.set(name, [...(entries.get(name) ?? []), entry])
    for (const [name, value] of Object.entries(data.values ?? {})) add(name, { cipher: data.cipher ?? null, value })
    for (const [other, values] of Object.entries(data.other ?? {})) {
      for (const [name, value] of Object.entries(values)) add(name, { cipher: other === 'plain' ? null : other, value })
    }
    return entries
  }

  const write = (entries: Map<string, Entry[]>) => {
    if (stuck) throw new AppError('unavailable', problem ?? `${file} could not be read.`)
    const data: SecretsFile = { version: 1, cipher: own, values: {} }
    for (const [name, list] of entries) {
      for (const entry of list) {
        if (entry.cipher === own) {
          data.values[name] = entry.value
        } else {
          const group = entry.cipher ?? 'plain'
          data.other ??= {}
          ;(data.other[group] ??= {})[name] = entry.value
        }
      }
    }
    const temp = `${file}.${process.pid}.tmp`
    writeFileSync(temp, JSON.stringify(data, null, 2), { mode: 0o600 })
    chmodSync(temp, 0o600)
    renameSync(temp, file)
  }

  /** The plain value, or undefined when another keychain (or a changed one) holds the key. */
  const decode = (entry: Entry): string | undefined => {
    if (entry.cipher === null) return entry.value
    if (!cipher || cipher.name !== entry.cipher) return undefined
    try {
      return cipher.decrypt(Buffer.from(entry.value, 'base64'))
    } catch {
      return undefined
    }
  }
  const encode = (plain: string): Entry => ({
    cipher: own,
    value: cipher ? cipher.encrypt(plain).toString('base64') : plain
  })

  return {
    problem: () => problem,
    protection: cipher ? `encrypted with ${cipher.name}, in a file only you can read` : 'in a file only you can read',
    get(name) {
      for (const entry of read().get(name) ?? []) {
        const plain = decode(entry)
        if (plain !== undefined) return plain
      }
      return undefined
    },
    set(name, value) {
      const entries = read()
      // Re-encode what can be read when the protection changed (e.g. the keychain became
      // available); what cannot be read stays exactly as it was.
      for (const [key, list] of entries) {
        entries.set(
          key,
          list.map((entry) => {
            if (entry.cipher === own) return entry
            const plain = decode(entry)
            return plain === undefined ? entry : encode(plain)
          })
        )
      }
      // The new key replaces every older version of itself, readable or not.
      entries.set(name, [encode(value)])
      write(entries)
    },
    delete(name) {
      const entries = read()
      if (!entries.has(name)) return
      entries.delete(name)
      write(entries)
    }
  }
}
