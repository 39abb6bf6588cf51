// The layer rules in eslint.config.mjs, checked against the real config: each forbidden import is reported,
// each allowed one lints clean. Sources are linted as if they lived at the given path (nothing is written).
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { describe, it } from 'node:test'
import { ESLint } from 'eslint'

const root = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({ cwd: root })
const layerRules = new Set([
  'boundaries/dependencies',
  'boundaries/no-unknown-files',
  'no-restricted-imports',
  'no-restricted-syntax',
  'no-restricted-properties',
  'no-restricted-globals',
  'distill/in-place-globals'
])

const shellImports =
  "import { app } from 'electron'\nimport { spawn } from 'node:child_process'\nimport { openDatabase } from '../db/client'\nexport { app, spawn, openDatabase }"

async function lint(filePath, code) {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` })
  return result.messages
}

const forbidden = [
  ['engine → providers', 'src/main/engine/probe.ts', "export { streamReply } from '../providers/stream-reply'"],
  [
    'engine → providers, spelled from the root',
    'src/main/engine/probe.ts',
    "export { streamReply } from '../../main/providers/stream-reply'"
  ],
  ['engine → app', 'src/main/engine/probe.ts', "export { createApp } from '../app'"],
  ['engine → cli', 'src/main/engine/probe.ts', "import '../cli/index'"],
  [
    'engine → services, even for types',
    'src/main/engine/probe.ts',
    "export type { Logger } from '../services/service-deps'"
  ],
  ['engine → tiktoken', 'src/main/engine/probe.ts', "export { get_encoding } from 'tiktoken'"],
  ['engine → node:fs', 'src/main/engine/probe.ts', "export { readFileSync } from 'node:fs'"],
  [
    'engine → shared values',
    'src/main/engine/probe.ts',
    "export { messageText } from '../../shared/domain/chat-message'"
  ],
  ['engine calls new Date()', 'src/main/engine/probe.ts', 'export const at = new Date()'],
  ['engine calls Date.now()', 'src/main/engine/probe.ts', 'export const at = Date.now()'],
  ['engine calls performance.now()', 'src/main/engine/probe.ts', 'export const at = performance.now()'],
  ['engine calls Math.random()', 'src/main/engine/probe.ts', 'export const roll = Math.random()'],
  ['engine calls crypto.randomUUID()', 'src/main/engine/probe.ts', 'export const id = crypto.randomUUID()'],
  ['services → transport', 'src/main/services/probe.ts', "export { createRouter } from '../transport/router'"],
  ['services → electron', 'src/main/services/probe.ts', "export { app } from 'electron'"],
  ['db → services', 'src/main/db/probe.ts', "export { createSessionsService } from '../services/sessions-service'"],
  ['transport → db', 'src/main/transport/probe.ts', "export { openDatabase } from '../db/client'"],
  ['cli → transport', 'src/main/cli/probe.ts', "export { createRouter } from '../transport/router'"],
  ['shared → react', 'src/shared/domain/probe.ts', "export { useState } from 'react'"],
  ['shared → main', 'src/shared/probe.ts', "export { createConsoleLogger } from '../main/logger'"],
  ['renderer → fs', 'src/renderer/src/probe.ts', "export { readFileSync } from 'fs'"],
  ['renderer → node:path', 'src/renderer/src/probe.ts', "export { join } from 'node:path'"],
  ['renderer → main', 'src/renderer/src/probe.ts', "export { createApp } from '../../main/app'"],
  ['renderer → contract values', 'src/renderer/src/probe.ts', "export { routes } from '../../shared/contract'"],
  ['preload → main', 'src/preload/probe.ts', "export { createApp } from '../main/app'"],
  [
    'production code → test support',
    'src/main/services/probe.ts',
    "export { useTempDir } from '../../../test/support/temp-dir'"
  ],
  ['production code → vitest', 'src/main/tokens/probe.ts', "export { expect } from 'vitest'"],
  ['a package nobody declared', 'src/main/services/probe.ts', "export { padStart } from 'left-pad'"],
  // Unknown files: every file belongs to an element, so a new place fails until the config names its layer.
  ['electron, child_process and the db from a new folder', 'src/main/newdir/probe.ts', shellImports],
  ['an import-free file in a new folder', 'src/main/newdir/probe.ts', 'export const one = 1'],
  ['a new file beside the single-file elements', 'src/main/probe.ts', shellImports],
  ['a new file at the top of src', 'src/probe.ts', 'export const one = 1'],
  ['a new folder in shared', 'src/shared/newdir/probe.ts', 'export const one = 1'],
  ['a test in a new folder', 'src/main/newdir/probe.test.ts', 'export const one = 1'],
  ['a new top-level folder', 'newdir/probe.ts', 'export const one = 1'],
  // Every module extension meets the layers and the engine's purity.
  ['services → electron from a .mts file', 'src/main/services/probe.mts', "export { app } from 'electron'"],
  ['engine → node:fs from a .js file', 'src/main/engine/probe.js', "export { readFileSync } from 'node:fs'"],
  ['engine .mts reads globalThis.Date.now()', 'src/main/engine/probe.mts', 'export const at = globalThis.Date.now()'],
  ['engine .mts schedules with setImmediate', 'src/main/engine/probe.mts', 'setImmediate(() => {})'],
  ['engine .mts schedules with queueMicrotask', 'src/main/engine/probe.mts', 'queueMicrotask(() => {})'],
  ['engine .mts reads globalThis.process', 'src/main/engine/probe.mts', 'export const env = globalThis.process.env'],
  ['engine .js calls Date.now()', 'src/main/engine/probe.js', 'export const at = Date.now()'],
  ['engine sets a timer', 'src/main/engine/probe.ts', 'export const t = setTimeout(() => {}, 1)'],
  ['engine logs', 'src/main/engine/probe.ts', "console.log('planned')"],
  ['engine reaches the clock through window', 'src/main/engine/probe.ts', 'export const at = window.performance.now()'],
  ['engine aliases Date', 'src/main/engine/probe.ts', 'const D = Date\nexport const at = D.now()'],
  ['engine aliases Math', 'src/main/engine/probe.ts', 'const M = Math\nexport const roll = M.random()'],
  ['engine builds a Date from no time', 'src/main/engine/probe.ts', 'export const at = new Date(...[])'],
  [
    'engine reads the clock through Intl',
    'src/main/engine/probe.ts',
    'export const today = new Intl.DateTimeFormat().format()'
  ],
  ['engine loads a module at run time', 'src/main/engine/probe.ts', "export const later = () => import('./truncate')"],
  ['engine reads import.meta', 'src/main/engine/probe.ts', 'export const here = import.meta.url'],
  // Imports the resolver cannot see fail in production code.
  ['a computed module name', 'src/main/services/probe.ts', 'export const load = (name: string) => import(name)'],
  ['import = require', 'src/main/services/probe.ts', "import electron = require('electron')\nexport { electron }"],
  [
    'process.getBuiltinModule',
    'src/main/services/probe.ts',
    "export const cp = process.getBuiltinModule('child_process')"
  ],
  ['production code → a unit test', 'src/main/services/probe.ts', "export * from './chat-export.test'"],
  // The worker thread reads stored parts, nothing else of the database.
  ['workers → the rest of db', 'src/main/workers/probe.ts', "export { openDatabase } from '../db/client'"],
  ['workers → better-sqlite3', 'src/main/workers/probe.ts', "export { default } from 'better-sqlite3'"],
  // The renderer's floors: features above components above stores, no feature → feature but a screen's composition.
  [
    'renderer feature → another feature',
    'src/renderer/src/features/history/probe.tsx',
    "export { MessageItem } from '../chat/messages/message-item'"
  ],
  [
    'renderer usage → compression',
    'src/renderer/src/features/usage/probe.tsx',
    "export { SummaryPanel } from '../compression/summary-panel'"
  ],
  [
    'renderer component → a feature',
    'src/renderer/src/components/probe.tsx',
    "export { ContextMeter } from '../features/usage/context-meter'"
  ],
  ['renderer store → a component', 'src/renderer/src/stores/probe.ts', "export { PinIcon } from '../components/icons'"],
  ['renderer lib → a store', 'src/renderer/src/lib/probe.ts', "export { useUiStore } from '../stores/ui-store'"],
  // The services' floors: a floor calls those below it, never those above or beside it.
  [
    'compression → next-request',
    'src/main/services/compression/probe.ts',
    "export { createNextRequest } from '../next-request/next-request'"
  ],
  [
    'compression → chat',
    'src/main/services/compression/probe.ts',
    "export { createChatService } from '../chat/chat-service'"
  ],
  [
    'recall → compression (beside it)',
    'src/main/services/recall/probe.ts',
    "export { createCompressionService } from '../compression/compression-service'"
  ],
  [
    'conversation → compression',
    'src/main/services/conversation/probe.ts',
    "export type { CompressionService } from '../compression/compression-service'"
  ],
  [
    'conversation → recall',
    'src/main/services/conversation/probe.ts',
    "export { createRecallService } from '../recall/recall-service'"
  ],
  [
    'next-request → chat',
    'src/main/services/next-request/probe.ts',
    "export type { ChatService } from '../chat/chat-service'"
  ],
  [
    'sessions → conversation',
    'src/main/services/sessions/probe.ts',
    "export type { UsageService } from '../conversation/usage-service'"
  ],
  [
    'settings → sessions',
    'src/main/services/settings/probe.ts',
    "export { createSessionsService } from '../sessions/sessions-service'"
  ],
  ['history → chat', 'src/main/services/history/probe.ts', "export { createChatService } from '../chat/chat-service'"],
  [
    'imports → compression',
    'src/main/services/imports/probe.ts',
    "export { createCompressionService } from '../compression/compression-service'"
  ],
  [
    'sessions → imports',
    'src/main/services/sessions/probe.ts',
    "export { importChats } from '../imports/import-chats'"
  ],
  ['imports (formats) → services', 'src/main/imports/probe.ts', "export type { Services } from '../services/services'"]
]

const allowed = [
  [
    'the chat pane composes other features',
    'src/renderer/src/features/chat/probe.tsx',
    "export { ContextMeter } from '../usage/context-meter'"
  ],
  [
    'a feature → components',
    'src/renderer/src/features/history/probe.tsx',
    "export { PinIcon } from '../../components/icons'"
  ],
  ['a component → stores', 'src/renderer/src/components/probe.tsx', "export { useUiStore } from '../stores/ui-store'"],
  ['engine → its own files', 'src/main/engine/probe.ts', "export { truncate } from './truncate'"],
  [
    'engine → shared types',
    'src/main/engine/probe.ts',
    "export type { ChatMessage } from '../../shared/domain/chat-message'"
  ],
  ['services → engine', 'src/main/services/probe.ts', "export { buildContext } from '../engine/build-context'"],
  ['services → shared errors', 'src/main/services/probe.ts', "export { AppError } from '../../shared/app-error'"],
  ['transport → services', 'src/main/transport/probe.ts', "export type { Logger } from '../services/service-deps'"],
  ['db → drizzle', 'src/main/db/probe.ts', "export { sqliteTable } from 'drizzle-orm/sqlite-core'"],
  ['shared → zod', 'src/shared/domain/probe.ts', "export { z } from 'zod'"],
  ['renderer → contract types', 'src/renderer/src/probe.ts', "export type { EventName } from '../../shared/contract'"],
  ['renderer → react', 'src/renderer/src/probe.ts', "export { useState } from 'react'"],
  ['shell → electron', 'src/main/platform/probe.ts', "export { app } from 'electron'"],
  ['cli → app', 'src/main/cli/probe.ts', "export { createApp } from '../app'"],
  [
    'tests → test support',
    'src/main/services/probe.test.ts',
    "export { useTempDir } from '../../../test/support/temp-dir'"
  ],
  [
    'engine → Date and Math in place',
    'src/main/engine/probe.ts',
    'export const day = (t: number, x: unknown): Date | number => (x instanceof Date ? new Date(t) : Math.max(Date.UTC(2026, 0, 1), t))'
  ],
  ['engine .mts → its own files', 'src/main/engine/probe.mts', "export { truncate } from './truncate'"],
  [
    'workers → the stored parts reader',
    'src/main/workers/probe.ts',
    "export { storedPartsReader } from '../db/repositories/messages/message-parts-repo'"
  ],
  [
    'workers → the import thread writer',
    'src/main/workers/probe.ts',
    "export { openSecondConnection, restoreChat } from '../db/repositories/restore-repo'"
  ],
  ['a test of a single-file element', 'src/main/logger.test.ts', "export { createApp } from './app'"],
  ['a script', 'scripts/probe.mjs', "export { spawn } from 'node:child_process'"],
  ['a benchmark', 'bench/probe.bench.ts', "export { createApp } from '../src/main/app'"],
  ['a top-level tool config', 'probe.config.mts', 'export default {}'],
  [
    'chat → next-request',
    'src/main/services/chat/probe.ts',
    "export { createNextRequest } from '../next-request/next-request'"
  ],
  [
    'next-request → compression',
    'src/main/services/next-request/probe.ts',
    "export { createCompressionService } from '../compression/compression-service'"
  ],
  [
    'next-request → recall',
    'src/main/services/next-request/probe.ts',
    "export { createRecallService } from '../recall/recall-service'"
  ],
  [
    'compression → conversation',
    'src/main/services/compression/probe.ts',
    "export { createUsageService } from '../conversation/usage-service'"
  ],
  [
    'conversation → settings',
    'src/main/services/conversation/probe.ts',
    "export { createSettingsService } from '../settings/settings-service'"
  ],
  [
    'imports → sessions',
    'src/main/services/imports/probe.ts',
    "export { createSessionsService } from '../sessions/sessions-service'"
  ],
  [
    "a floor → the services' shared deps",
    'src/main/services/settings/probe.ts',
    "export type { ServiceDeps } from '../service-deps'"
  ]
]

describe('layers', () => {
  for (const [name, file, code] of forbidden) {
    it(`rejects ${name}`, async () => {
      const messages = await lint(file, code)
      assert.ok(
        messages.some((m) => layerRules.has(m.ruleId)),
        `expected a layer error for ${file}: ${code}\n${JSON.stringify(messages, null, 2)}`
      )
    })
  }
  for (const [name, file, code] of allowed) {
    it(`accepts ${name}`, async () => {
      assert.deepEqual(await lint(file, code), [])
    })
  }
})
