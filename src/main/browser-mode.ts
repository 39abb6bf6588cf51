import { randomBytes } from 'node:crypto'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createApp, type App } from './app'
import { warmAppWhenQuiet } from './services/conversation/warm-when-quiet'
import type { Logger } from './services/service-deps'
import { createRawHandlers } from './transport/handlers'
import { createHttpServer, listen } from './transport/http'

export interface BrowserModeOptions {
  dbFile: string
  port?: number
  staticDir?: string
  log: Logger
  /** Tests may fix it; otherwise a fresh random token per launch. */
  token?: string
}

export interface BrowserMode {
  app: App
  server: Server
  port: number
  token: string
  /** The address to open, with the token in the fragment (never sent to a server in logs). */
  url: string
  close(): Promise<void>
}

/**
 * Starts the app's services and serves the renderer plus the RPC/SSE API on 127.0.0.1. It serves
 * first: the tokenizers and the newest chat load after the first page is served (warm-when-quiet.ts).
 */
export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const app = createApp({
    dbFile: options.dbFile,
    mode: 'browser',
    command: 'distill serve',
    log: options.log
  })
  const token = options.token ?? randomBytes(24).toString('base64url')
  const server = createHttpServer({
    router: app.router,
    events: app.events,
    token,
    staticDir: options.staticDir,
    log: options.log,
    rawRoutes: createRawHandlers(app.services, options.log)
  })
  const warm = warmAppWhenQuiet(app, options.log.warn)
  // Every request counts until it is answered, but the event stream, open as long as the page is:
  // its opening says a page is here.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/events' || req.url?.startsWith('/events?')) return warm.start()
    warm.begin()
    res.once('close', () => warm.end())
  })
  let port: number
  try {
    port = await listen(server, options.port ?? 0)
  } catch (err) {
    warm.stop()
    app.close()
    throw err
  }
  return {
    app,
    server,
    port,
    token,
    url: `http://127.0.0.1:${port}/#token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        warm.stop()
        server.closeAllConnections()
        server.close(() => {
          app.close()
          resolve()
        })
      })
  }
}
