import { MockLanguageModelV3, simulateReadableStream } from 'ai/test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { logSdkWarningsOnce } from './sdk-warnings'
import { streamReply } from './stream-reply'

/** A model that answers "ok" and warns that it ignores a setting, on every call. */
const warningModel = (feature = 'maxOutputTokens') =>
  new MockLanguageModelV3({
    doStream: () =>
      Promise.resolve({
        stream: simulateReadableStream({
          chunks: [
            {
              type: 'stream-start' as const,
              warnings: [{ type: 'unsupported' as const, feature, details: 'limited to 4096' }]
            },
            { type: 'text-start' as const, id: 't' },
            { type: 'text-delta' as const, id: 't', delta: 'ok' },
            { type: 'text-end' as const, id: 't' }
          ]
        })
      })
  })

afterEach(() => {
  globalThis.AI_SDK_LOG_WARNINGS = undefined
  vi.restoreAllMocks()
})

describe('AI SDK warnings', () => {
  it('are logged once per model and kind, not once per request (a summary makes one per chunk)', async () => {
    const lines: string[] = []
    logSdkWarningsOnce((line) => lines.push(line))
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const model = warningModel()
    for (let i = 0; i < 3; i++) {
      const r = await streamReply({
        model,
        messages: [{ role: 'user', content: 'hi' }],
        signal: new AbortController().signal,
        stallMs: 5000,
        now: Date.now,
        onDelta: () => {}
      })
      expect(r).toMatchObject({ outcome: 'complete', text: 'ok' })
    }
    expect(lines).toEqual([
      '[distill] warn AI SDK (mock-provider, mock-model-id): unsupported maxOutputTokens: limited to 4096'
    ])
    expect(consoleWarn).not.toHaveBeenCalled()
  })

  it('go to Distill’s log from the first model call on, without setup', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (let i = 0; i < 2; i++) {
      await streamReply({
        model: warningModel('temperature'),
        messages: [{ role: 'user', content: 'hi' }],
        signal: new AbortController().signal,
        stallMs: 5000,
        now: Date.now,
        onDelta: () => {}
      })
    }
    expect(consoleWarn).not.toHaveBeenCalled()
    expect(stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('AI SDK'))).toHaveLength(1)
  })
})
