import { test as base, expect, type Page } from '@playwright/test'
import { startFakeProvider, type FakeProvider } from '../fake-provider'
import { startDistill, type DistillServer } from './distill-server'

/**
 * Each test gets its own scripted fake provider and its own Distill server (fresh database) whose
 * provider keys and base URLs point at the fake: no test reaches a real provider host.
 */
export const test = base.extend<{ fake: FakeProvider; distill: DistillServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies by destructuring
  fake: async ({}, use) => {
    const fake = await startFakeProvider()
    await use(fake)
    await fake.close()
  },
  distill: async ({ fake }, use) => {
    const server = await startDistill({ env: fakeProviderEnv(fake) })
    await use(server)
    await server.stop()
  }
})

export function fakeProviderEnv(fake: FakeProvider): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-fake-openai-0001',
    OPENAI_BASE_URL: fake.baseURLs.openai,
    ANTHROPIC_API_KEY: 'sk-ant-fake-0002',
    ANTHROPIC_BASE_URL: fake.baseURLs.anthropic,
    GOOGLE_GENERATIVE_AI_API_KEY: 'fake-google-0003',
    GOOGLE_GENERATIVE_AI_BASE_URL: fake.baseURLs.google,
    OPENAI_COMPATIBLE_BASE_URL: fake.baseURLs.openaiCompatible,
    OPENAI_COMPATIBLE_API_KEY: 'fake-local-0004'
  }
}

export { expect }

/** Saves a screenshot as a test artifact, so every screen can be looked at. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false })
}
