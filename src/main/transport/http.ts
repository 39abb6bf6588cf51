import { createReadStream, realpathSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { extname, join, normalize, sep } from 'node:path'
import { timingSafeEqual } from 'node:crypto'
import type { RpcResult } from '../../shared/contract'
import type { Logger } from '../services/service-deps'
import type { EventHub } from './event-hub'
import type { Router } from './router'

/** Above the largest message (1M characters of UTF-8) plus its envelope. */
const MAX_BODY_BYTES = 8 * 1024 * 1024
/**
 * A chat export being imported carries its files as base64 (5 MB each at most): routes named here
 * may send more. Still bounded, and only after the token was checked.
 */
const LARGE_BODY_ROUTES: Readonly<Record<string, number>> = { 'sessions.import': 48 * 1024 * 1024 }
/** Above this, a body's decoding and parsing take turns of the event loop of their own. */
const LARGE_BODY_BYTES = 256 * 1024
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))
/** A larger body is still read (and dropped) up to this size so the client sees the 413. */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024
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
  /**
   * Routes that take the request body's bytes as they came (a 40 MB chat import is parsed on a
   * worker thread, never on this one); they answer like the router.
   */
  rawRoutes?: Partial<Record<string, (body: Buffer) => Promise<RpcResult<unknown>>>>
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
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

type RefusalStatus = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 500

function refuse(res: ServerResponse, status: RefusalStatus, message: string): void {
  const code =
    status === 401 ? 'unauthorized' : status === 404 ? 'not_found' : status === 500 ? 'internal' : 'invalid_input'
  const body: RpcResult<never> = { ok: false, error: { code, message } }
  sendJson(res, status, body)
}

/** `decodeURIComponent` that answers null instead of throwing on `%`, `%zz` or overlong UTF-8. */
function decodePath(path: string): string | null {
  try {
    const decoded = decodeURIComponent(path)
    return decoded.includes('\0') ? null : decoded
  } catch {
    return null
  }
}

/**
 * The body's bytes, or 'too-large' once it passes the limit (the rest is read and dropped). With a
 * Content-Length, the bytes are copied into one buffer as they arrive: joining 48 MB of chunks at
 * the end would hold up the event loop for a tenth of a second.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'])
    const whole =
      Number.isSafeInteger(declared) && declared > 0 && declared <= limit ? Buffer.allocUnsafe(declared) : undefined
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      if (whole && size + chunk.length <= whole.length) chunk.copy(whole, size)
      else if (size + chunk.length <= limit) chunks.push(chunk)
      else chunks.length = 0
      size += chunk.length
      // Past this, reading on would only let one client tie up the server.
      if (size > MAX_DISCARD_BYTES) resolve('too-large')
    })
    req.on('end', () => {
      if (size > limit) resolve('too-large')
      else
        resolve(
          whole && size === whole.length
            ? whole
            : Buffer.concat(whole ? [whole.subarray(0, Math.min(size, whole.length)), ...chunks] : chunks)
        )
    })
    req.on('error', reject)
  })
}

function isJsonContentType(req: IncomingMessage): boolean {
  const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  return type === 'application/json'
}

/** A JSON answer written straight to the socket, for requests that never reach the handler. */
function answerRaw(socket: Duplex, status: string, message: string): void {
  const body = JSON.stringify({ ok: false, error: { code: 'invalid_input', message } })
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  )
}

/** Answers requests too malformed for the handler (bad request line, headers, overflow). */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // Once anything was written on this connection a raw answer would corrupt it.
  if (!socket.writable || (socket as Socket).bytesWritten > 0) {
    socket.destroy()
    return
  }
  if (err.code === 'HPE_HEADER_OVERFLOW')
    answerRaw(socket, '431 Request Header Fields Too Large', 'The request headers are too large.')
  else answerRaw(socket, '400 Bad Request', 'The request is malformed.')
}

/**
 * Browser mode's transport: `POST /rpc/:route` and `GET /events` (server-sent events) over the same
 * router as IPC, plus the built renderer. Loopback only, a per-launch token on every API call,
 * foreign Host/Origin refused (DNS rebinding), and no CORS headers at all.
 */
export function createHttpServer(options: HttpServerOptions): Server {
  const { router, events, token, staticDir, log, rawRoutes = {} } = options

  const server = createServer((req, res) => {
    // Whatever a request holds, it gets an answer and the server keeps serving.
    try {
      handle(req, res)
    } catch (err) {
      fail(res, err)
    }
  })
  server.on('clientError', answerClientError)
  // Without these listeners Node would drop such connections without a word.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    answerRaw(socket, '405 Method Not Allowed', 'Use GET or POST.')
  )
  server.on('upgrade', (_req: IncomingMessage, socket: Duplex) =>
    answerRaw(socket, '400 Bad Request', 'No protocol upgrades here.')
  )

  function fail(res: ServerResponse, err: unknown): void {
    log.error('A browser-mode request failed', err)
    if (res.headersSent) res.destroy()
    else refuse(res, 500, 'Something went wrong inside Distill. The details are in the log.')
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
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

    // Only origin-form targets ("/path?query"); anything else is not a request for this server.
    const target = req.url ?? '/'
    // A backslash counts as a slash in URLs: "/\\host" is a network path like "//host".
    if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
      return refuse(res, 400, 'Malformed request target.')
    let url: URL
    try {
      url = new URL(target, 'http://localhost')
    } catch {
      return refuse(res, 400, 'Malformed request target.')
    }
    // The bearer header only: a cookie would ignore the port and reach every local server.
    const authorized = sameToken(bearerToken(req), token)

    if (url.pathname.startsWith('/rpc/')) {
      if (req.method !== 'POST') return refuse(res, 405, 'Use POST.')
      if (!authorized) return refuse(res, 401, 'Missing or wrong token.')
      if (!isJsonContentType(req)) return refuse(res, 415, 'Send the body as Content-Type: application/json.')
      const route = decodePath(url.pathname.slice(5))
      if (route === null) return refuse(res, 400, 'Malformed route.')
      handleRpc(route, req, res).catch((err: unknown) => fail(res, err))
      return
    }
    if (url.pathname === '/events') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Use GET.')
      if (!authorized) return refuse(res, 401, 'Missing or wrong token.')
      return handleEvents(req, res)
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Use GET.')
    serveStatic(url.pathname, res)
  }

  async function handleRpc(route: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: Buffer | 'too-large'
    const limit = LARGE_BODY_ROUTES[route] ?? MAX_BODY_BYTES
    try {
      body = await readBody(req, limit)
    } catch {
      // A broken chunked encoding or a client that went away mid-body.
      if (!res.destroyed) refuse(res, 400, 'The request body could not be read.')
      return
    }
    if (body === 'too-large') {
      res.setHeader('Connection', 'close')
      return refuse(res, 413, `Request too large (more than ${limit / 1024 / 1024} MB).`)
    }
    const raw = rawRoutes[route]
    if (raw) return sendJson(res, 200, await raw(body))
    // Decoding, parsing, the route's work and writing the answer of a large body (a 5 MB file, a
    // message of a million characters) each take a turn of their own, so no one turn adds them up.
    const large = body.length > LARGE_BODY_BYTES
    let input: unknown
    try {
      const text = body.toString('utf8')
      if (large) await nextTurn()
      input = text.trim() === '' ? {} : JSON.parse(text)
    } catch {
      return refuse(res, 400, 'The request body is not JSON.')
    }
    if (large) await nextTurn()
    const answer = await router.call(route, input)
    if (large) await nextTurn()
    sendJson(res, 200, answer)
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive'
    })
    // HEAD asks whether the stream is there: the headers say so, and there is no body to wait for.
    if (req.method === 'HEAD') return void res.end()
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

  /** The real path of a file inside `root` (symlinks resolved and kept inside), or null. */
  function fileInside(root: string, path: string): string | null {
    let real: string
    try {
      real = realpathSync(path)
      if (!statSync(real).isFile()) return null
    } catch {
      return null
    }
    return real.startsWith(root + sep) ? real : null
  }

  function serveStatic(pathname: string, res: ServerResponse): void {
    if (!staticDir) return refuse(res, 404, 'No renderer is served here.')
    const decoded = decodePath(pathname)
    if (decoded === null) return refuse(res, 400, 'Malformed path.')
    let root: string
    try {
      root = realpathSync(staticDir)
    } catch {
      return refuse(res, 404, 'No renderer is served here.')
    }
    const requested = normalize(join(root, decoded))
    if (!requested.startsWith(root + sep) && requested !== root) return refuse(res, 404, 'Not found.')
    let file = fileInside(root, requested)
    if (!file) {
      // Unknown paths without an extension are app routes: serve the shell.
      if (extname(decoded) !== '') return refuse(res, 404, 'Not found.')
      file = fileInside(root, join(root, 'index.html'))
      if (!file) return refuse(res, 404, 'Not found.')
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
