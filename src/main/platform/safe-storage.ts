import { safeStorage } from 'electron'
import type { SecretCipher } from '../services/settings/secret-store'

/**
 * API keys encrypted with the OS keychain (Keychain, DPAPI, libsecret/kwallet) where Electron can
 * reach one; undefined otherwise, and the secret store then relies on file permissions alone.
 */
export function keychainCipher(): SecretCipher | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined
  // On Linux without a keyring Electron falls back to a hard-coded key: that protects nothing.
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return undefined
  return {
    name: 'electron-safeStorage',
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(data)
  }
}
