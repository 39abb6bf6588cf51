// Test helper: a tiny Anthropic count_tokens + Gemini countTokens server on 127.0.0.1.
// "Tokens" are whitespace-separated words; Anthropic adds a fixed framing of 7 like the real one does.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export const FAKE_KEY = 'test-key'
export const FAKE_ANTHROPIC_FRAMING = 7

export interface FakeCountServer {
  baseURL: string
  requests: { path: string; headers: IncomingMessage['headers']; body: unknown }[]
  /** Milliseconds to wait before answering (simulates a stalled endpoint). */
  delayMs: number
  /** Status to answer with instead of counting (e.g. 500, 429). */
  failWith: number | undefined
  close(): Promise<void>
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length

export async function startFakeCountServer(): Promise<FakeCountServer> {
  const state: FakeCountServer = { baseURL: '', requests: [], delayMs: 0, failWith: undefined, close: async () => {} }
  // Any exception here would surface as an unhandled rejection in the test run: answer 400 instead.
  const server: Server = createServer((req, res) => void handle(req, res).catch(() => res.writeHead(400).end()))
  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const body = JSON.parse(raw || '{}') as Record<string, unknown>
    state.requests.push({ path: req.url ?? '', headers: req.headers, body })
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs))
    if (res.destroyed) return
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(data))
    }
    if (state.failWith) return send(state.failWith, { error: { message: 'injected failure' } })
    if (req.url === '/v1/messages/count_tokens') {
      if (req.headers['x-api-key'] !== FAKE_KEY || req.headers['anthropic-version'] !== '2023-06-01') {
        return send(401, { error: { type: 'authentication_error' } })
      }
      const msgs = body.messages as { content: string | { text: string }[] }[]
      const texts = msgs.flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.map((b) => b.text)))
      const n = texts.reduce((s, t) => s + words(t), 0)
      return send(200, { input_tokens: FAKE_ANTHROPIC_FRAMING + n + (body.system ? words(String(body.system)) : 0) })
    }
    const gemini = /^\/v1beta\/models\/([^/:]+):countTokens$/.exec(req.url ?? '')
    if (gemini) {
      if (req.headers['x-goog-api-key'] !== FAKE_KEY) return send(403, { error: { status: 'PERMISSION_DENIED' } })
      const contents = body.contents as { parts: { text: string }[] }[]
      const n = contents.flatMap((c) => c.parts).reduce((s, p) => s + words(p.text), 0)
      return send(200, n === 0 ? {} : { totalTokens: n }) // proto3 JSON omits zeros
    }
    send(404, { error: 'not found' })
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  state.baseURL = `http://127.0.0.1:${port}`
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return state
}
