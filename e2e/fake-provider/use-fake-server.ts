import { afterAll, beforeAll, beforeEach } from 'vitest'
import { type FakeProviderOptions, startFakeProvider, type FakeProvider } from './server'

/**
 * One fake provider for a test file, reset before each test (scripts, requests, usage factor and
 * prompt cache): the getter returns it once it listens.
 */
export function useFakeServer(options: FakeProviderOptions = {}): () => FakeProvider {
  let server: FakeProvider | undefined
  beforeAll(async () => {
    server = await startFakeProvider(options)
  })
  afterAll(async () => {
    await server?.close()
  })
  beforeEach(() => server?.reset())
  return () => server!
}
