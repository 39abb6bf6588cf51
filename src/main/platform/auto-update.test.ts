import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import {
  createServer,
  request,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HttpExecutor } from 'builder-util-runtime'
import { DebUpdater, NsisUpdater, type AppUpdater } from 'electron-updater'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../logger'
import { startUpdateChecks, updateCheckOff } from './auto-update'

/*
 * The update check against a generic feed served on 127.0.0.1: the real electron-updater, given an
 * app adapter and a plain-Node HTTP executor in place of Electron's (the only parts that need Electron).
 */

const feed: Record<string, string> = {
  // Windows (NSIS) reads latest.yml; Linux reads latest-linux.yml.
  '/latest.yml': [
    'version: 0.2.0',
    'files:',
    '  - url: Distill-Setup-0.2.0.exe',
    '    sha512: AAAA',
    '    size: 100',
    'path: Distill-Setup-0.2.0.exe',
    'sha512: AAAA',
    "releaseDate: '2026-01-01T00:00:00.000Z'"
  ].join('\n'),
  '/latest-linux.yml': [
    'version: 0.3.0',
    'files:',
    '  - url: distill_0.3.0_amd64.deb',
    '    sha512: BBBB',
    '    size: 100',
    'path: distill_0.3.0_amd64.deb',
    'sha512: BBBB',
    "releaseDate: '2026-01-02T00:00:00.000Z'"
  ].join('\n')
}

class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback)
  }
}

let server: Server
let base: string
let cache: string
const requested: string[] = []

beforeAll(async () => {
  cache = mkdtempSync(join(tmpdir(), 'distill-updates-'))
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    requested.push(path)
    const body = feed[path]
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/yaml' }).end(body ?? 'not found')
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})

afterAll(async () => {
  server.close()
  await once(server, 'close')
  rmSync(cache, { recursive: true, force: true })
})

function updater(kind: 'win32' | 'linux', version: string): AppUpdater {
  const app = {
    version,
    name: 'Distill',
    isPackaged: true,
    appUpdateConfigPath: join(cache, 'app-update.yml'),
    userDataPath: cache,
    baseCachePath: cache,
    whenReady: () => Promise.resolve(),
    relaunch() {},
    quit() {},
    onQuit() {}
  }
  const u = kind === 'win32' ? new NsisUpdater(null, app) : new DebUpdater(null, app)
  Object.assign(u, { httpExecutor: new NodeHttpExecutor(), _testOnlyOptions: { platform: kind } })
  u.autoDownload = false
  u.setFeedURL({ provider: 'generic', url: base })
  return u
}

describe('update checks', () => {
  it('run only in a packaged build, and not when turned off', () => {
    expect(updateCheckOff({ isPackaged: false, env: {} })).toBe('not a packaged build')
    expect(updateCheckOff({ isPackaged: true, env: { DISTILL_NO_UPDATE_CHECK: '1' } })).toMatch(/is set/)
    expect(updateCheckOff({ isPackaged: true, env: {} })).toBeNull()
  })

  it('read latest.yml from the feed (Windows) and find the newer version', async () => {
    const checks = startUpdateChecks({ updater: updater('win32', '0.1.0'), log: silentLogger, notify: false })
    try {
      expect(await checks.check()).toBe('0.2.0')
      expect(requested).toContain('/latest.yml')
    } finally {
      checks.stop()
    }
  })

  it('read latest-linux.yml on Linux', async () => {
    const checks = startUpdateChecks({ updater: updater('linux', '0.1.0'), log: silentLogger, notify: false })
    try {
      expect(await checks.check()).toBe('0.3.0')
      expect(requested).toContain('/latest-linux.yml')
    } finally {
      checks.stop()
    }
  })

  it('offer nothing when the app is already at the feed version or newer', async () => {
    const checks = startUpdateChecks({ updater: updater('linux', '0.3.0'), log: silentLogger, notify: false })
    try {
      expect(await checks.check()).toBeNull()
    } finally {
      checks.stop()
    }
  })

  it('survive a feed that is missing (logged, not thrown)', async () => {
    const warnings: string[] = []
    const log = { ...silentLogger, error: (m: string) => void warnings.push(m) }
    const u = updater('linux', '0.1.0')
    u.setFeedURL({ provider: 'generic', url: `${base}missing/` })
    const checks = startUpdateChecks({ updater: u, log, notify: false })
    try {
      expect(await checks.check()).toBeNull()
      expect(warnings.join('\n')).toMatch(/404|latest-linux\.yml/)
    } finally {
      checks.stop()
    }
  })
})
