import { afterEach, describe, expect, it, vi } from 'vitest'
import { startBrowserMode, type BrowserMode } from './browser-mode'
import { silentLogger } from './logger'
import { QUIET_MS } from './services/conversation/warm-when-quiet'

const warmed = vi.hoisted(() => ({ steps: 0 }))
vi.mock('./services/conversation/warm-tokenizers', () => ({
  warmTokenizers: () => undefined,
  tokenizerWarmSteps: () => [() => void warmed.steps++, () => void warmed.steps++]
}))

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('browser mode opens before it warms up', () => {
  let mode: BrowserMode | undefined
  afterEach(async () => {
    await mode?.close()
    mode = undefined
    warmed.steps = 0
  })

  it('serves at once and loads the tokenizers only after the first page is served', async () => {
    mode = await startBrowserMode({ dbFile: ':memory:', log: silentLogger, token: 'test' })
    await pause(QUIET_MS + 200)
    expect(warmed.steps).toBe(0)
    const res = await fetch(`http://127.0.0.1:${mode.port}/rpc/sessions.list`, {
      method: 'POST',
      headers: { Authorization: 'Bearer test', 'Content-Type': 'application/json' },
      body: '{}'
    })
    expect(res.status).toBe(200)
    await vi.waitFor(() => expect(warmed.steps).toBe(2), { timeout: QUIET_MS * 6, interval: 50 })
  })
})
