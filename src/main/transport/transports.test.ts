import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { routes } from '../../shared/contract'
import { createApp, type App } from '../app'
import { silentLogger } from '../logger'
import { manualClock, useTempDir } from '../../../test/support/temp-dir'
import { createHandlers } from './handlers'
import { createHttpServer, listen } from './http'
import { createIpcDispatch } from './ipc-dispatch'

const TOKEN = 'test-token-0123456789'

describe('the contract and its two transports', () => {
  const tempDir = useTempDir()
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })

  async function start(options: { staticDir?: string } = {}): Promise<{ app: App; base: string; port: number }> {
    // Fixed ids and clock: the two transports must produce byte-identical answers.
    let n = 0
    const app = createApp({
      dbFile: join(tempDir(), 'distill.db'),
      mode: 'browser',
      log: silentLogger,
      clock: manualClock(),
      ids: () => `id-${String(++n).padStart(4, '0')}`,
      validateOutput: true,
      env: {}
    })
    const server = createHttpServer({
      router: app.router,
      events: app.events,
      token: TOKEN,
      log: silentLogger,
      ...options
    })
    const port = await listen(server)
    cleanups.push(
      () => app.close(),
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections()
          server.close(() => r())
        })
    )
    return { app, base: `http://127.0.0.1:${port}`, port }
  }

  const rpc = async (base: string, route: string, input: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/rpc/${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}`, ...headers },
      body: JSON.stringify(input)
    })
    return { status: res.status, headers: res.headers, body: (await res.json()) as unknown }
  }

  it('has a handler for every route and no handler without a route', async () => {
    const { app } = await start()
    const handlers = createHandlers(app.services, app.info)
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(routes).sort())
  })

  it('answers the same calls identically over HTTP and IPC', async () => {
    const viaHttp = await start()
    const viaIpc = await start()
    const dispatch = createIpcDispatch({ router: viaIpc.app.router, isTrustedSender: () => true })
    const calls: Array<[string, unknown]> = [
      ['sessions.create', { title: 'Groceries' }],
      ['sessions.list', {}],
      ['chat.send', { sessionId: 'id-0001', text: 'Milk, eggs, flour' }],
      ['chat.messages', { sessionId: 'id-0001' }],
      ['sessions.rename', { id: 'id-0001', title: '' }],
      ['sessions.get', { id: 'missing' }],
      ['settings.update', { retentionTokens: -5 }],
      ['nope.route', {}]
    ]
    for (const [route, input] of calls) {
      const http = await rpc(viaHttp.base, route, input)
      const ipc = await dispatch({}, route, input)
      expect(http.status).toBe(200)
      expect(http.body, route).toEqual(ipc)
    }
    const unknown = await dispatch({}, 'nope.route', {})
    expect(unknown).toEqual({ ok: false, error: { code: 'not_found', message: 'Unknown route "nope.route".' } })
    const invalid = await dispatch({}, 'sessions.rename', { id: 'id-0001', title: '' })
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path: ['title'] }] } })
  })

  it('refuses IPC calls from an untrusted sender', async () => {
    const { app } = await start()
    const dispatch = createIpcDispatch({
      router: app.router,
      isTrustedSender: (s: { url: string }) => s.url === 'app://ok'
    })
    expect(await dispatch({ url: 'https://evil.example' }, 'sessions.list', {})).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' }
    })
    expect(await dispatch({ url: 'app://ok' }, 42, {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('turns an unexpected failure into "internal" without leaking the stack', async () => {
    const { app, base } = await start()
    app.database.sqlite.exec('DROP TABLE settings')
    const res = await rpc(base, 'settings.update', { notifications: false })
    expect(res.body).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Something went wrong inside Distill. The details are in the log.' }
    })
  })

  it('requires the token, refuses foreign Host and Origin, and sends no CORS headers', async () => {
    const { base, port } = await start()
    const noToken = await fetch(`${base}/rpc/sessions.list`, { method: 'POST', body: '{}' })
    expect(noToken.status).toBe(401)
    expect(await noToken.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } })
    expect((await rpc(base, 'sessions.list', {}, { Authorization: 'Bearer wrong' })).status).toBe(401)
    expect((await fetch(`${base}/events`)).status).toBe(401)

    const foreignOrigin = await rpc(base, 'sessions.list', {}, { Origin: 'http://evil.example' })
    expect(foreignOrigin.status).toBe(403)
    const ok = await rpc(base, 'sessions.list', {}, { Origin: `http://localhost:${port}` })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBeNull()

    // fetch() cannot forge Host; a raw request can, as a DNS-rebinding page's browser would send it.
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/rpc/sessions.list',
          method: 'POST',
          headers: { Host: `evil.example:${port}`, Authorization: `Bearer ${TOKEN}` }
        },
        (res) => resolve(res.statusCode ?? 0)
      )
      req.on('error', reject)
      req.end('{}')
    })
    expect(status).toBe(403)
  })

  it('never sets a cookie: the event stream and the API take the bearer header only', async () => {
    const staticDir = join(tempDir(), 'renderer')
    mkdirSync(staticDir)
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><div id="root"></div>')
    const { base } = await start({ staticDir })
    const bearer = { Authorization: `Bearer ${TOKEN}` }
    const json = { 'Content-Type': 'application/json' }
    const controller = new AbortController()
    const responses = await Promise.all([
      fetch(`${base}/`),
      fetch(`${base}/chats/x`),
      fetch(`${base}/missing.js`),
      fetch(`${base}/auth`, { method: 'POST', headers: bearer }),
      fetch(`${base}/auth`, { headers: bearer }),
      fetch(`${base}/rpc/app.info`, { method: 'POST', headers: { ...bearer, ...json }, body: '{}' }),
      fetch(`${base}/rpc/app.info`, { method: 'POST', headers: json, body: '{}' }),
      fetch(`${base}/events`),
      fetch(`${base}/events`, { headers: bearer, signal: controller.signal })
    ])
    for (const res of responses) expect(res.headers.get('set-cookie'), res.url).toBeNull()
    expect(responses.map((r) => r.status)).toEqual([200, 200, 404, 405, 200, 200, 401, 401, 200])
    controller.abort()

    // A cookie carrying the token, as an old page or another app may hold, authorizes nothing.
    const cookie = { Cookie: `distill_token=${TOKEN}` }
    expect(
      (await fetch(`${base}/rpc/app.info`, { method: 'POST', headers: { ...cookie, ...json }, body: '{}' })).status
    ).toBe(401)
    expect((await fetch(`${base}/events`, { headers: cookie })).status).toBe(401)
  })

  it('streams events to a client that sends the bearer header', async () => {
    const { base } = await start()
    const controller = new AbortController()
    const res = await fetch(`${base}/events`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
      signal: controller.signal
    })
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    const reader = res.body!.getReader()
    await reader.read() // the ": connected" comment
    await rpc(base, 'sessions.create', { title: 'Evented' })
    let text = ''
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value)
    const envelope = JSON.parse(text.replace(/^data: /, '').trim()) as unknown
    expect(envelope).toEqual({ event: 'sessions.changed', payload: { sessionId: 'id-0001', reason: 'created' } })
    controller.abort()
  })

  it('rejects a body that is not JSON with invalid_input', async () => {
    const { base } = await start()
    const res = await fetch(`${base}/rpc/sessions.list`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{not json'
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })
})
