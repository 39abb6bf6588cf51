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

/** Opens apps on given SQLite files, closing each after the test (or earlier, by `close`). */
export function useOpenApps(): {
  open: (options: Partial<AppOptions> & { dbFile: string }) => App
  close: (app: App) => Promise<void>
} {
  const apps: App[] = []
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close()
  })
  return {
    open(options) {
      const app = createApp({ mode: 'browser', log: silentLogger, validateOutput: true, env: {}, ...options })
      apps.push(app)
      return app
    },
    async close(app) {
      const at = apps.indexOf(app)
      if (at >= 0) apps.splice(at, 1)
      await app.close()
    }
  }
}

/** Opens apps on fresh SQLite files in a temp dir, closing each after the test. */
export function useTestApps(): (options?: Partial<AppOptions>) => App {
  const tempDir = useTempDir()
  const { open } = useOpenApps()
  return (options = {}) => open({ dbFile: join(tempDir(), 'distill.db'), ...options })
}
