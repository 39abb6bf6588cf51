import { test as base, expect, type Page } from '@playwright/test'
import { startDistill, type DistillServer } from './distill-server'

/** Each test gets its own server and database. */
export const test = base.extend<{ distill: DistillServer }>({
  distill: async ({}, use) => {
    const server = await startDistill()
    await use(server)
    await server.stop()
  }
})

export { expect }

/** Saves a screenshot as a test artifact, so every screen can be looked at. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false })
}
