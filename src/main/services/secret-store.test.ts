import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../../test/support/temp-dir'
import { createFileSecretStore, type SecretCipher } from './secret-store'

const rot13: SecretCipher = {
  name: 'test-cipher',
  encrypt: (s) => Buffer.from(s.replace(/[a-z]/gi, (c) => String.fromCharCode(c.charCodeAt(0) + (c.toLowerCase() < 'n' ? 13 : -13)))),
  decrypt: (b) => b.toString().replace(/[a-z]/gi, (c) => String.fromCharCode(c.charCodeAt(0) + (c.toLowerCase() < 'n' ? 13 : -13)))
}

describe('file secret store', () => {
  const tempDir = useTempDir()

  it('keeps keys in a file only the user can read', () => {
    const file = join(tempDir(), 'secrets.json')
    const store = createFileSecretStore(file)
    store.set('openai', 'sk-test-1234')
    expect(createFileSecretStore(file).get('openai')).toBe('sk-test-1234')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    store.delete('openai')
    expect(store.get('openai')).toBeUndefined()
  })

  it('encrypts with the cipher and never writes the plain key', () => {
    const file = join(tempDir(), 'secrets.json')
    const store = createFileSecretStore(file, rot13)
    store.set('anthropic', 'sk-ant-secretvalue')
    expect(readFileSync(file, 'utf8')).not.toContain('secretvalue')
    expect(createFileSecretStore(file, rot13).get('anthropic')).toBe('sk-ant-secretvalue')
    // Without the keychain the value cannot be read, and nothing pretends otherwise.
    expect(createFileSecretStore(file).get('anthropic')).toBeUndefined()
  })
})
