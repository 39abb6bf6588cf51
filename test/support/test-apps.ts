import { join } from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { startFakeProvider, type FakeProvider } from '../../e2e/fake-provider'
import { createApp, type App, type AppOptions } from '../../src/main/app'
import { silentLogger } from '../../src/main/logger'
import { useTempDir } from './temp-dir'

/** One scripted fake provider for the file, reset after each test; `use` receives it once started. */
export function useFakeProvider(use: (fake: FakeProvider) => void): void {
  let fake: FakeProvider | undefined
  beforeAll(async () => {
    fake = await startFakeProvider()
    use(fake)
  })
  afterEach(() => fake?.reset())
  afterAll(async () => {
    await fake?.close()
  })
}

/** Opens apps on fresh SQLite files in a temp dir, closing each after the test. */
export function useTestApps(): (options?: Partial<AppOptions>) => App {
  const tempDir = useTempDir()
  const apps: App[] = []
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close()
  })
  return (options = {}) => {
    const app = createApp({
      dbFile: join(tempDir(), 'distill.db'),
      mode: 'browser',
      log: silentLogger,
      validateOutput: true,
      env: {},
      ...options
    })
    apps.push(app)
    return app
  }
}
