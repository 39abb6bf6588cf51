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

interface SecretsFile {
  version: 1
  cipher: string | null
  values: Record<string, string>
}

/**
 * API keys in a file only the user can read (mode 0600), encrypted with the OS keychain where
 * Electron offers it. Written atomically, so a crash never leaves half a file.
 */
export function createFileSecretStore(file: string, cipher?: SecretCipher): SecretStore {
  const read = (): SecretsFile => {
    if (!existsSync(file)) return { version: 1, cipher: cipher?.name ?? null, values: {} }
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as SecretsFile
    return parsed
  }
  const write = (data: SecretsFile) => {
    const temp = `${file}.${process.pid}.tmp`
    writeFileSync(temp, JSON.stringify(data, null, 2), { mode: 0o600 })
    chmodSync(temp, 0o600)
    renameSync(temp, file)
  }
  const decode = (data: SecretsFile, value: string): string | undefined => {
    if (data.cipher === null) return value
    if (!cipher || cipher.name !== data.cipher) return undefined // encrypted by a keychain we cannot reach
    return cipher.decrypt(Buffer.from(value, 'base64'))
  }

  return {
    protection: cipher ? `encrypted with ${cipher.name}, in a file only you can read` : 'in a file only you can read',
    get(name) {
      const data = read()
      const value = data.values[name]
      return value === undefined ? undefined : decode(data, value)
    },
    set(name, value) {
      const data = read()
      // Re-encode everything when the protection changed (e.g. the keychain became available).
      const values: Record<string, string> = {}
      for (const [k, v] of Object.entries(data.values)) {
        const plain = decode(data, v)
        if (plain !== undefined) values[k] = plain
      }
      values[name] = value
      const encoded = Object.fromEntries(
        Object.entries(values).map(([k, v]) => [k, cipher ? cipher.encrypt(v).toString('base64') : v])
      )
      write({ version: 1, cipher: cipher?.name ?? null, values: encoded })
    },
    delete(name) {
      const data = read()
      if (!(name in data.values)) return
      delete data.values[name]
      write(data)
    }
  }
}
