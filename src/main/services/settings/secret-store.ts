import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'

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

interface Entry {
  cipher: string | null
  value: string
}

/**
 * API keys in a file only the user can read (mode 0600), encrypted with the OS keychain where
 * Electron offers it. Written atomically, so a crash never leaves half a file. A key this process
 * cannot decrypt is never dropped: saving another key rewrites the file with that entry as it was.
 */
export function createFileSecretStore(file: string, cipher?: SecretCipher): SecretStore {
  const own = cipher?.name ?? null

  const read = (): Map<string, Entry[]> => {
    const entries = new Map<string, Entry[]>()
    if (!existsSync(file)) return entries
    const data = JSON.parse(readFileSync(file, 'utf8')) as SecretsFile
    const add = (name: string, entry: Entry) => entries.set(name, [...(entries.get(name) ?? []), entry])
    for (const [name, value] of Object.entries(data.values ?? {})) add(name, { cipher: data.cipher ?? null, value })
    for (const [other, values] of Object.entries(data.other ?? {})) {
      for (const [name, value] of Object.entries(values)) add(name, { cipher: other === 'plain' ? null : other, value })
    }
    return entries
  }

  const write = (entries: Map<string, Entry[]>) => {
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
  const encode = (plain: string): Entry => ({ cipher: own, value: cipher ? cipher.encrypt(plain).toString('base64') : plain })

  return {
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
