import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../app'
import { silentLogger } from '../logger'
import { useTempDir } from '../../../test/support/temp-dir'
import { createHttpServer, listen } from './http'

const TOKEN = 'hardening-token-0123456789'

/**
 * Sends raw bytes on a fresh connection and returns the head of the server's answer (or what came
 * before the server closed). The connection stays open for writing, as a browser's would.
 */
function raw(port: number, data: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let out = ''
    const done = () => {
      socket.destroy()
      resolve(out)
    }
    socket.on('data', (d: Buffer) => {
      out += d.toString('latin1')
      if (out.includes('\r\n\r\n')) done()
    })
    socket.on('close', done)
    socket.on('error', done)
    socket.write(data)
  })
}

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0)

describe('browser mode under malformed requests', () => {
  const tempDir = useTempDir()
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })

  async function start(staticDir?: string): Promise<{ server: Server; port: number; base: string }> {
    const app = createApp({ dbFile: join(tempDir(), 'distill.db'), mode: 'browser', log: silentLogger, env: {} })
    const server = createHttpServer({
      router: app.router,
      events: app.events,
      token: TOKEN,
      log: silentLogger,
      staticDir
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
    return { server, port, base: `http://127.0.0.1:${port}` }
  }

  function renderer(): string {
    const dir = join(tempDir(), 'renderer')
    mkdirSync(join(dir, 'assets'), { recursive: true })
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>')
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("app")')
    return dir
  }

  const authorizedCall = (base: string) =>
    fetch(`${base}/rpc/sessions.create`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Still here' })
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as unknown }))

  it('answers every malformed path, request line and header, and keeps serving', async () => {
    const { server, port, base } = await start(renderer())
    const host = `Host: 127.0.0.1:${port}\r\n`
    const auth = `Authorization: Bearer ${TOKEN}\r\n`

    const prefixes = ['/', '/assets/', '/rpc/', '/rpc/sessions.list/', '/events/']
    const nasty = [
      '%',
      '%zz',
      '%C0%AF',
      '%E0%80%AF',
      '%00',
      'a%00.js',
      '%2e%2e/%2e%2e/etc/passwd',
      '..%2f..%2fetc%2fpasswd',
      '..%5c..%5cwin.ini',
      '%%',
      '%u002e',
      'a%',
      '%ff%fe.js',
      '..',
      '.%2e/.%2e/x',
      '%252e%252e',
      '?%',
      'x?a=%',
      '%F0%9F',
      ';%',
      'index.html%',
      'assets%2F..%2F..%2Fx.js',
      `${'a'.repeat(4000)}.js`,
      '%D8%00'
    ]
    const methods = ['GET', 'POST', 'HEAD', 'OPTIONS', 'DELETE']
    const requests: string[] = []
    for (const prefix of prefixes) {
      for (const path of nasty) {
        for (const method of methods) {
          const body = method === 'POST' ? '{}' : ''
          const headers = `${host}${requests.length % 2 ? auth : ''}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n`
          requests.push(`${method} ${prefix}${path} HTTP/1.1\r\n${headers}\r\n${body}`)
        }
      }
    }
    // Request lines and headers no browser would send: the HTTP parser itself refuses them.
    requests.push(
      `GET /a b HTTP/1.1\r\n${host}\r\n`,
      `GET /\x01 HTTP/1.1\r\n${host}\r\n`,
      `GET / HTTP/9.9\r\n${host}\r\n`,
      `GET /\r\n${host}\r\n`,
      `GET\r\n\r\n`,
      `\x00\x01\x02\x03\r\n\r\n`,
      `GET http://127.0.0.1:${port}/ HTTP/1.1\r\n${host}\r\n`,
      `GET //evil.example/x HTTP/1.1\r\n${host}\r\n`,
      `GET * HTTP/1.1\r\n${host}\r\n`,
      `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n${host}\r\n`,
      `GET / HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost\r\n\r\n`,
      `GET / HTTP/1.1\r\n${host}Bad Header: x\r\n\r\n`,
      `GET / HTTP/1.1\r\n${host}X: \x00\r\n\r\n`,
      `GET / HTTP/1.1\r\n${host}${host}\r\n`,
      `GET / HTTP/1.1\r\n${host}X-Long: ${'x'.repeat(70_000)}\r\n\r\n`,
      `GET /events HTTP/1.1\r\n${host}Authorization: Bearer\r\n\r\n`,
      `GET /events HTTP/1.1\r\n${host}Authorization: Basic ${TOKEN}\r\n\r\n`,
      `GET /events HTTP/1.1\r\n${host}Authorization: Bearer ${TOKEN}x\r\nConnection: close\r\n\r\n`,
      `POST /rpc/sessions.list HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`,
      `POST /rpc/sessions.list HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`,
      `POST /rpc/sessions.list HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      `POST /rpc/sessions.list HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      `POST /rpc/sessions.list HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      `POST /rpc/sessions.list HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nContent-Length: 5\r\n\r\n\xff\xfe\x00{}`,
      `POST /rpc/sessions.list HTTP/1.1\r\n${host}${auth}Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}`,
      `POST /rpc/sessions.list HTTP/1.1\r\n${host}${auth}Content-Type: application/json\r\nContent-Length: 1\r\n\r\n{`
    )

    const unanswered: string[] = []
    const failed: string[] = []
    for (const request of requests) {
      const answer = await raw(port, Buffer.from(request, 'latin1'))
      const status = statusOf(answer)
      if (status === 0) unanswered.push(request.slice(0, 80))
      else if (status >= 500) failed.push(`${status} ${request.slice(0, 80)}`)
    }
    expect(requests.length).toBeGreaterThan(600)
    expect(unanswered).toEqual([])
    expect(failed).toEqual([])

    // The same through fetch, as a page or script would send them.
    for (const path of ['/%', '/assets/%zz', '/%C0%AF', '/assets/%E0%80', '/%00', '/assets/app.js%']) {
      const res = await fetch(`${base}${path}`)
      expect(res.status, path).toBe(400)
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    }
    const rpcPercent = await fetch(`${base}/rpc/%`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{}'
    })
    expect(rpcPercent.status).toBe(400)
    const bodies: Array<string | Blob> = [
      '{',
      '[]',
      '"x"',
      '1e999999',
      '[['.repeat(100_000),
      '\u0000',
      new Blob([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])])
    ]
    for (const body of bodies) {
      const res = await fetch(`${base}/rpc/sessions.create`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body
      })
      expect(res.status, String(body).slice(0, 20)).toBeLessThan(500)
      expect(await res.json(), String(body).slice(0, 20)).toMatchObject({ ok: false })
    }

    expect(server.listening).toBe(true)
    expect(await authorizedCall(base)).toMatchObject({ status: 200, body: { ok: true, data: { title: 'Still here' } } })
  })

  it('refuses targets the URL parser cannot read with 400, not 500', async () => {
    const { port } = await start()
    const host = `Host: 127.0.0.1:${port}\r\n`
    for (const target of ['/\\[', '/\\\\evil.example/x', '/\\', '/[', '/%5B']) {
      const answer = await raw(port, `GET ${target} HTTP/1.1\r\n${host}\r\n`)
      expect([target, statusOf(answer)]).toEqual([target, target === '/[' || target === '/%5B' ? 404 : 400])
    }
  })

  it('answers HEAD /events with the stream’s headers and ends, and refuses other methods', async () => {
    const { base } = await start()
    const head = await fetch(`${base}/events`, {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${TOKEN}` },
      signal: AbortSignal.timeout(3000)
    })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toMatch(/text\/event-stream/)
    expect(await head.text()).toBe('')
    const post = await fetch(`${base}/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      signal: AbortSignal.timeout(3000)
    })
    expect(post.status).toBe(405)
  })

  it('answers an oversized body with 413 instead of dropping the connection', async () => {
    const { base } = await start()
    const res = await fetch(`${base}/rpc/sessions.create`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(9 * 1024 * 1024) })
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/too large/) }
    })
    expect((await authorizedCall(base)).status).toBe(200)
  })

  it('lets an import carry a chat export larger than other calls may, within its own bound', async () => {
    const { base } = await start()
    const call = (size: number) =>
      fetch(`${base}/rpc/sessions.import`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'x'.repeat(size) })
      })
    const large = await call(12 * 1024 * 1024)
    // Read and handed to the route, which judges the text (not an export).
    expect(large.status).toBe(200)
    expect(await large.json()).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/not valid JSON/) }
    })
    const huge = await call(50 * 1024 * 1024)
    expect(huge.status).toBe(413)
    expect(await huge.json()).toMatchObject({ ok: false, error: { message: 'Request too large (more than 48 MB).' } })
  })

  it('requires a JSON content type for API calls', async () => {
    const { base } = await start()
    for (const type of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx'
    ]) {
      const res = await fetch(`${base}/rpc/sessions.list`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, ...(type ? { 'Content-Type': type } : {}) },
        body: '{}'
      })
      expect(res.status, type).toBe(415)
    }
    const withCharset = await fetch(`${base}/rpc/sessions.list`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'Application/JSON; charset=utf-8' },
      body: '{}'
    })
    expect(withCharset.status).toBe(200)
  })

  it('does not follow symlinks out of the renderer folder', async () => {
    const dir = renderer()
    const outside = join(tempDir(), 'outside')
    mkdirSync(outside)
    writeFileSync(join(outside, 'secret.js'), 'SECRET')
    symlinkSync(join(outside, 'secret.js'), join(dir, 'assets', 'leak.js'))
    symlinkSync(outside, join(dir, 'assets', 'linked'))
    symlinkSync(join(dir, 'assets', 'app.js'), join(dir, 'assets', 'alias.js'))
    const { base } = await start(dir)

    for (const path of ['/assets/leak.js', '/assets/linked/secret.js']) {
      const res = await fetch(`${base}${path}`)
      expect(res.status, path).toBe(404)
      expect(await res.text()).not.toContain('SECRET')
    }
    // An extension-less route that resolves outside gets the app shell, never the file.
    const route = await fetch(`${base}/assets/linked`)
    expect(await route.text()).toContain('<div id="root">')
    // A link that stays inside the folder is served.
    const alias = await fetch(`${base}/assets/alias.js`)
    expect(alias.status).toBe(200)
    expect(await alias.text()).toBe('console.log("app")')
  })
})
