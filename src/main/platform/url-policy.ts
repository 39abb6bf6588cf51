import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where the window's page comes from: the built renderer on disk, or (development only) the
 * electron-vite dev server on loopback. Everything the shell trusts is derived from this one value.
 */
export type RendererTarget = { kind: 'file'; file: string } | { kind: 'dev'; url: string }

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * Picks the renderer target. A dev server URL is honoured only in an unpackaged app and only on
 * http loopback: an environment variable must never make the privileged window load a remote page.
 */
export function resolveRendererTarget(options: {
  /** out/main (the bundle's __dirname) */
  mainDir: string
  devUrl?: string | undefined
  isPackaged: boolean
}): RendererTarget {
  const dev = options.devUrl?.trim()
  if (dev && !options.isPackaged) {
    const url = parse(dev)
    if (url && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return { kind: 'dev', url: url.href }
  }
  return { kind: 'file', file: resolve(options.mainDir, '..', 'renderer', 'index.html') }
}

function samePath(a: string, b: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' || platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b
}

/**
 * Is this URL our own page? For the built renderer: exactly out/renderer/index.html (any query or
 * fragment); for the dev server: its origin. Used to authorize IPC senders, event delivery and
 * permission requests.
 */
export function isAppUrl(url: string, target: RendererTarget, platform: NodeJS.Platform = process.platform): boolean {
  const parsed = parse(url)
  if (!parsed) return false
  if (target.kind === 'dev') return parsed.origin === new URL(target.url).origin
  if (parsed.protocol !== 'file:' || (parsed.host !== '' && parsed.host !== 'localhost')) return false
  let path: string
  try {
    parsed.search = ''
    parsed.hash = ''
    path = fileURLToPath(parsed)
  } catch {
    return false
  }
  return samePath(resolve(path), resolve(target.file), platform)
}

/** Links the OS browser may open: http and https only (no file:, javascript:, custom schemes). */
export function isExternalWebUrl(url: string): boolean {
  const parsed = parse(url)
  return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== ''
}

/** A navigation that stays on the same document (only the fragment differs) is harmless. */
export function isSameDocument(from: string, to: string): boolean {
  const a = parse(from)
  const b = parse(to)
  if (!a || !b) return false
  a.hash = ''
  b.hash = ''
  return a.href === b.href
}

/**
 * The policy the window enforces. The dev server needs inline scripts (the React refresh preamble);
 * the built renderer gets the same strict policy as browser mode.
 */
export function contentSecurityPolicyFor(target: RendererTarget, strictPolicy: string): string {
  if (target.kind === 'file') return strictPolicy
  return strictPolicy.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
}

/** The permissions our own page may use; everything else is denied. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write', 'fullscreen'])

export function isPermissionAllowed(
  permission: string,
  requestingUrl: string | undefined,
  target: RendererTarget
): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && requestingUrl !== undefined && isAppUrl(requestingUrl, target)
}
