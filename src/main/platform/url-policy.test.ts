import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  contentSecurityPolicyFor,
  isAppUrl,
  isExternalWebUrl,
  isPermissionAllowed,
  isSameDocument,
  resolveRendererTarget,
  type RendererTarget
} from './url-policy'

const mainDir = resolve('/opt/distill/out/main')
const fileTarget = resolveRendererTarget({ mainDir, isPackaged: false })
const indexUrl = pathToFileURL(resolve('/opt/distill/out/renderer/index.html')).href

describe('resolveRendererTarget', () => {
  it('uses out/renderer/index.html next to out/main', () => {
    expect(fileTarget).toEqual({ kind: 'file', file: resolve('/opt/distill/out/renderer/index.html') })
  })

  it('honours a loopback dev server only when unpackaged', () => {
    expect(resolveRendererTarget({ mainDir, devUrl: 'http://localhost:5173', isPackaged: false })).toEqual({
      kind: 'dev',
      url: 'http://localhost:5173/'
    })
    expect(resolveRendererTarget({ mainDir, devUrl: 'http://localhost:5173', isPackaged: true }).kind).toBe('file')
  })

  it('ignores a dev server URL that is remote, https or garbage', () => {
    for (const devUrl of [
      'http://evil.example:5173',
      'https://localhost:5173',
      'not a url',
      'file:///etc/passwd',
      ''
    ]) {
      expect(resolveRendererTarget({ mainDir, devUrl, isPackaged: false }).kind).toBe('file')
    }
  })
})

describe('isAppUrl', () => {
  it('accepts the built index.html with any fragment or query', () => {
    expect(isAppUrl(indexUrl, fileTarget, 'linux')).toBe(true)
    expect(isAppUrl(`${indexUrl}#/sessions/1`, fileTarget, 'linux')).toBe(true)
    expect(isAppUrl(`${indexUrl}?x=1`, fileTarget, 'linux')).toBe(true)
  })

  it('refuses other files, other schemes and remote file hosts', () => {
    const other = pathToFileURL(resolve('/opt/distill/out/renderer/other.html')).href
    const outside = pathToFileURL(resolve('/tmp/index.html')).href
    for (const url of [
      other,
      outside,
      pathToFileURL(resolve('/opt/distill/out/renderer/index.html.evil')).href,
      'file://evil.example/opt/distill/out/renderer/index.html',
      'https://example.com/index.html',
      'about:blank',
      'devtools://devtools/bundled/inspector.html',
      'garbage'
    ]) {
      expect(isAppUrl(url, fileTarget, 'linux'), url).toBe(false)
    }
  })

  it('resolves dot segments before comparing', () => {
    const sneaky = indexUrl.replace('/renderer/index.html', '/renderer/../renderer/index.html')
    expect(isAppUrl(sneaky, fileTarget, 'linux')).toBe(true)
  })

  it('compares the dev server by origin', () => {
    const dev: RendererTarget = { kind: 'dev', url: 'http://localhost:5173/' }
    expect(isAppUrl('http://localhost:5173/#/x', dev)).toBe(true)
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false)
    expect(isAppUrl('http://127.0.0.1:5173/', dev)).toBe(false)
    expect(isAppUrl(indexUrl, dev)).toBe(false)
  })
})

describe('isExternalWebUrl', () => {
  it('accepts http and https only', () => {
    expect(isExternalWebUrl('https://example.com/a?b#c')).toBe(true)
    expect(isExternalWebUrl('http://example.com')).toBe(true)
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'mailto:a@b.c',
      'ms-settings:',
      'x'
    ]) {
      expect(isExternalWebUrl(url), url).toBe(false)
    }
  })
})

describe('isSameDocument', () => {
  it('ignores only the fragment', () => {
    expect(isSameDocument(`${indexUrl}#/a`, `${indexUrl}#/b`)).toBe(true)
    expect(isSameDocument(indexUrl, `${indexUrl}?x`)).toBe(false)
    expect(isSameDocument(indexUrl, 'https://example.com')).toBe(false)
  })
})

describe('contentSecurityPolicyFor', () => {
  const strict = "default-src 'self'; script-src 'self'; object-src 'none'"
  it('keeps the strict policy for the built renderer', () => {
    expect(contentSecurityPolicyFor(fileTarget, strict)).toBe(strict)
  })
  it('allows inline scripts for the dev server only', () => {
    expect(contentSecurityPolicyFor({ kind: 'dev', url: 'http://localhost:5173/' }, strict)).toContain(
      "script-src 'self' 'unsafe-inline'"
    )
  })
})

describe('isPermissionAllowed', () => {
  it('grants clipboard writes to our page and nothing else', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', indexUrl, fileTarget)).toBe(true)
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://example.com', fileTarget)).toBe(false)
    expect(isPermissionAllowed('clipboard-sanitized-write', undefined, fileTarget)).toBe(false)
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      expect(isPermissionAllowed(p, indexUrl, fileTarget), p).toBe(false)
    }
  })
})
