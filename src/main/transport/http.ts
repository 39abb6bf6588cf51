import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { timingSafeEqual } from 'node:crypto'
import type { RpcResult } from '../../shared/contract'
import type { Logger } from '../services/service-deps'
import type { EventHub } from './event-hub'
import type { Router } from './router'

export const TOKEN_COOKIE = 'distill_token'
/** Above the largest message (1M characters of UTF-8) plus its envelope. */
const MAX_BODY_BYTES = 8 * 1024 * 1024
const HEARTBEAT_MS = 25_000

/** The renderer's CSP; the Electron window applies the same policy. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix dialogs inject a small <style> element for scroll locking.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join('; ')

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8'
}

export interface HttpServerOptions {
  router: Router
  events: EventHub
  token: string
  /** The built renderer (out/renderer); without it only the API is served. */
  staticDir?: string
  log: Logger
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

function cookieToken(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === TOKEN_COOKIE) return decodeURIComponent(rest.join('='))
  }
  return undefined
}

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization
  return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text)
  })
  res.end(text)
}

function refuse(res: ServerResponse, status: 401 | 403 | 404 | 405 | 413, message: string): void {
  const code = status === 401 ? 'unauthorized' : status === 404 ? 'not_found' : 'invalid_input'
  const body: RpcResult<never> = { ok: false, error: { code, message } }
  sendJson(res, status, body)
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        resolve(null)
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/**
 * Browser mode's transport: `POST /rpc/:route` and `GET /events` (server-sent events) over the same
 * router as IPC, plus the built renderer. Loopback only, a per-launch token on every API call,
 * foreign Host/Origin refused (DNS rebinding), and no CORS headers at all.
 */
export function createHttpServer(options: HttpServerOptions): Server {
  const { router, events, token, staticDir, log } = options

  const server = createServer((req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'no-referrer')
    res.setHeader('X-Frame-Options', 'DENY')
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')

    const port = (server.address() as AddressInfo).port
    const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
    if (!allowedHosts.includes(req.headers.host ?? '')) return refuse(res, 403, 'Foreign Host header.')
    const origin = req.headers.origin
    if (origin !== undefined && !allowedHosts.some((h) => origin === `http://${h}`)) {
      return refuse(res, 403, 'Foreign Origin.')
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') return refuse(res, 403, 'Cross-site request.')

    const url = new URL(req.url ?? '/', `http://${req.headers.host}`)
    const authorized = sameToken(bearerToken(req) ?? cookieToken(req), token)

    if (url.pathname.startsWith('/rpc/')) {
      if (req.method !== 'POST') return refuse(res, 405, 'Use POST.')
      if (!authorized) return refuse(res, 401, 'Missing or wrong token.')
      void handleRpc(decodeURIComponent(url.pathname.slice(5)), req, res)
      return
    }
    if (url.pathname === '/events') {
      if (!authorized) return refuse(res, 401, 'Missing or wrong token.')
      return handleEvents(req, res)
    }
    if (url.pathname === '/auth') {
      if (req.method !== 'POST') return refuse(res, 405, 'Use POST.')
      // Only a bearer token may set the cookie, so a page cannot log itself in with a guess.
      if (!sameToken(bearerToken(req), token)) return refuse(res, 401, 'Missing or wrong token.')
      res.writeHead(204, {
        'Set-Cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`,
        'Cache-Control': 'no-store'
      })
      res.end()
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Use GET.')
    serveStatic(url.pathname, res)
  })

  async function handleRpc(route: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let input: unknown
    try {
      const body = await readBody(req)
      if (body === null) return refuse(res, 413, 'Request too large.')
      input = body.trim() === '' ? {} : JSON.parse(body)
    } catch {
      sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'The request body is not JSON.' } })
      return
    }
    sendJson(res, 200, await router.call(route, input))
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive'
    })
    res.write(': connected\n\n')
    const unsubscribe = events.subscribe((envelope) => {
      res.write(`data: ${JSON.stringify(envelope)}\n\n`)
    })
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS)
    req.on('close', () => {
      clearInterval(heartbeat)
      unsubscribe()
    })
  }

  function serveStatic(pathname: string, res: ServerResponse): void {
    if (!staticDir) return refuse(res, 404, 'No renderer is served here.')
    const root = normalize(staticDir)
    let file = normalize(join(root, decodeURIComponent(pathname)))
    if (!file.startsWith(root + sep) && file !== root) return refuse(res, 404, 'Not found.')
    if (!existsSync(file) || statSync(file).isDirectory()) {
      // Unknown paths without an extension are app routes: serve the shell.
      if (extname(pathname) !== '') return refuse(res, 404, 'Not found.')
      file = join(root, 'index.html')
    }
    const isHtml = file.endsWith('.html')
    res.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': isHtml ? 'no-cache' : 'public, max-age=31536000, immutable',
      ...(isHtml ? { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } : {})
    })
    createReadStream(file)
      .on('error', (err) => {
        log.error(`Cannot serve ${file}`, err)
        res.destroy()
      })
      .pipe(res)
  }

  return server
}

/** Starts listening on loopback only; resolves with the bound port. */
export function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}
