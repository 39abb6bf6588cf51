import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Every extension a module can have, so a `.mts` or `.js` file meets the same rules as a `.ts` one. */
const code = '{ts,tsx,mts,cts,js,jsx,mjs,cjs}'
/** Unit tests sit beside the code they test and may reach across layers; everything else under src/ ships. */
const unitTests = [`src/**/*.test.${code}`]

/** A single-file element's test belongs to it, so the test is a known file too. */
const withTests = (files) => files.flatMap((file) => [file, file.replace(/\.ts$/, '.test.ts')])

/**
 * Layers per DESIGN §2, stated as an allow-list: every import a layer makes, local or external, must match a
 * policy below, so a new kind of dependency fails lint until someone decides it belongs. Every file ESLint lints
 * must belong to an element (`boundaries/no-unknown-files`), so a new folder or top-level file fails until it is
 * given a layer here. Paths are resolved by eslint-import-resolver-node with the TypeScript extensions (the
 * project uses no path aliases), so `../../main/x` and `../x` land on the same element whatever the spelling.
 */
/**
 * The services' floors, top first: a floor may call those below it, never those above (issue 36).
 * chat > next-request > compression | recall | history (Full history) > conversation (the reader
 * and its accounting) > sessions | settings; imports (a file made into chats) sits on sessions.
 */
const serviceFloorNames = [
  'chat',
  'imports',
  'next-request',
  'compression',
  'recall',
  'history',
  'conversation',
  'sessions',
  'settings'
]
const serviceTypes = ['services', ...serviceFloorNames.map((floor) => `services/${floor}`)]
const below = (...floors) => ['services', ...floors.map((floor) => `services/${floor}`)]

/**
 * The renderer's floors: the app's root (App.tsx) composes features; a feature uses components,
 * stores, lib and the api client, and another feature only where it composes a screen of them (the
 * chat pane, the settings page); components use stores; stores use the api client and lib.
 */
const rendererFeatures = ['chat', 'compression', 'history', 'providers', 'sessions', 'settings', 'usage']
const rendererBelow = {
  renderer: [
    ...rendererFeatures.map((f) => `renderer/${f}`),
    'renderer/components',
    'renderer/stores',
    'renderer/lib',
    'renderer/api'
  ],
  'renderer/components': ['renderer/components', 'renderer/stores', 'renderer/lib', 'renderer/api'],
  'renderer/stores': ['renderer/stores', 'renderer/lib', 'renderer/api'],
  'renderer/api': ['renderer/api', 'renderer/lib'],
  'renderer/lib': ['renderer/lib'],
  ...Object.fromEntries(
    rendererFeatures.map((f) => [
      `renderer/${f}`,
      [
        `renderer/${f}`,
        'renderer/components',
        'renderer/stores',
        'renderer/lib',
        'renderer/api',
        ...(
          {
            chat: ['compression', 'history', 'sessions', 'usage', 'providers'],
            settings: ['providers']
          }[f] ?? []
        ).map((other) => `renderer/${other}`)
      ]
    ])
  )
}
const rendererTypes = Object.keys(rendererBelow)

const elements = [
  { type: 'contract', pattern: 'src/shared/contract', partialMatch: false },
  { type: 'domain', pattern: 'src/shared/domain', partialMatch: false },
  { type: 'shared', pattern: 'src/shared/*.ts', mode: 'full' },
  // The renderer's floors: features above components above stores (rendererFloors).
  ...rendererFeatures.map((feature) => ({
    type: `renderer/${feature}`,
    pattern: `src/renderer/src/features/${feature}`,
    partialMatch: false
  })),
  ...['components', 'stores', 'lib', 'api'].map((floor) => ({
    type: `renderer/${floor}`,
    pattern: `src/renderer/src/${floor}`,
    partialMatch: false
  })),
  { type: 'renderer', pattern: 'src/renderer', partialMatch: false },
  { type: 'preload', pattern: 'src/preload', partialMatch: false },
  // The Electron shell: the only code that may import electron.
  { type: 'shell', pattern: withTests(['src/main/index.ts', 'src/main/window.ts']), mode: 'full' },
  { type: 'shell', pattern: 'src/main/platform', partialMatch: false },
  // Composition roots: wire services to a database, a transport and a logger.
  { type: 'app', pattern: withTests(['src/main/app.ts', 'src/main/browser-mode.ts']), mode: 'full' },
  // Single-file elements: each file is its own element, so a layer lists itself to import its neighbours.
  { type: 'support', pattern: withTests(['src/main/logger.ts', 'src/main/data-location.ts']), mode: 'full' },
  ...['transport', 'engine', 'db', 'tokens', 'models', 'providers', 'imports', 'cli', 'attachments', 'workers'].map(
    (layer) => ({
      type: layer,
      pattern: `src/main/${layer}`,
      partialMatch: false
    })
  ),
  // Each service capability is an element of its own, so the floors below hold (serviceFloors).
  ...serviceFloorNames.map((floor) => ({
    type: `services/${floor}`,
    pattern: `src/main/services/${floor}`,
    partialMatch: false
  })),
  // What every service shares: the deps every service is built with, the services' type, the chat lock.
  { type: 'services', pattern: 'src/main/services/*.{ts,md}', mode: 'full' },
  // Outside src/ nothing ships, but every file still has a named place (a new top-level folder fails lint).
  { type: 'test-support', pattern: 'test', partialMatch: false },
  { type: 'e2e', pattern: 'e2e', partialMatch: false },
  { type: 'scripts', pattern: 'scripts', partialMatch: false },
  { type: 'bench', pattern: 'bench', partialMatch: false },
  // Tool configuration at the top level and the `distill` launcher.
  { type: 'tooling', pattern: ['*.config.{ts,mts,mjs}', 'bin/distill.cjs'], mode: 'full' },
  { type: 'manifest', pattern: 'package.json', mode: 'full' }
]

const sharedLayers = ['contract', 'domain', 'shared']
const mainCore = [...serviceTypes, 'engine', 'db', 'tokens', 'models', 'providers', 'imports', 'attachments', 'workers']

/**
 * What one layer may import. `may`: layers imported for values; `types`: layers imported with `import type` only;
 * `packages`: npm packages (subpaths included); `builtins`: node core modules (`node:` prefix or not).
 */
function layer(from, { may = [], types = [], packages = [], builtins = [] }) {
  const policies = []
  if (may.length > 0) policies.push({ from: { element: { type: from } }, allow: { to: { element: { type: may } } } })
  if (types.length > 0) {
    policies.push({
      from: { element: { type: from } },
      allow: { to: { element: { type: types } }, dependency: { kind: 'type' } }
    })
  }
  if (packages.length > 0) {
    policies.push({
      from: { element: { type: from } },
      allow: { to: { module: { origin: 'external', source: packages } } }
    })
  }
  if (builtins.length > 0) {
    const names = builtins.flatMap((name) => [name, `node:${name}`])
    policies.push({ from: { element: { type: from } }, allow: { to: { module: { origin: 'core', source: names } } } })
  }
  return policies
}

const anyBuiltin = ['*']

/** What each floor of the services may call (besides the shared files of services/). */
const servicesBelow = {
  services: serviceTypes,
  // The top floor: a send goes through the next request; after it, the reply may call any floor below.
  'services/chat': below('next-request', 'compression', 'recall', 'history', 'conversation', 'sessions', 'settings'),
  'services/next-request': below('compression', 'recall', 'conversation', 'settings'),
  'services/compression': below('conversation', 'sessions', 'settings'),
  'services/recall': below('conversation', 'sessions', 'settings'),
  'services/history': below('conversation', 'sessions', 'settings'),
  'services/conversation': below('sessions', 'settings'),
  'services/imports': below('sessions', 'settings'),
  'services/sessions': below('settings'),
  'services/settings': below()
}

const layerPolicies = [
  // shared/ is loaded by every process, the renderer included: zod is its only dependency.
  ...layer('domain', { packages: ['zod'] }),
  ...layer('contract', { may: ['domain', 'shared'], packages: ['zod'] }),
  ...layer('shared', { may: ['domain'], types: ['contract'], packages: ['zod'] }),
  // The renderer reaches the main process through its api client; the contract is types only.
  ...rendererTypes.flatMap((floor) =>
    layer(floor, {
      may: ['domain', 'shared', ...rendererBelow[floor]],
      types: ['contract'],
      packages: [
        'react',
        'react-dom',
        'zustand',
        'sonner',
        '@radix-ui/*',
        'cmdk',
        '@tanstack/*',
        'react-markdown',
        'remark-gfm',
        'remark-breaks',
        'rehype-highlight'
      ]
    })
  ),
  ...layer('preload', { types: ['contract'], packages: ['electron'] }),
  ...layer('shell', {
    may: [...sharedLayers, 'shell', 'app', 'support', 'transport', ...serviceTypes, 'db'],
    // electron-updater: update checks of the packaged app (platform/auto-update.ts).
    packages: ['electron', 'electron-updater'],
    builtins: anyBuiltin
  }),
  ...layer('app', {
    may: [...sharedLayers, 'app', 'support', 'transport', ...mainCore, 'manifest'],
    packages: ['uuid'],
    builtins: anyBuiltin
  }),
  ...layer('support', { types: serviceTypes, builtins: ['fs', 'os', 'path'] }),
  // Transport stays thin: it calls services, never the database or the engine.
  ...layer('transport', {
    may: [...sharedLayers, ...serviceTypes, 'support'],
    types: ['app'],
    builtins: ['fs', 'http', 'net', 'path', 'crypto', 'stream']
  }),
  ...serviceTypes.flatMap((floor) =>
    layer(floor, {
      may: [
        ...sharedLayers,
        'support',
        ...mainCore.filter((name) => !serviceTypes.includes(name)),
        ...servicesBelow[floor]
      ],
      types: ['app', 'services'],
      packages: ['ai', 'uuid'],
      builtins: ['fs', 'path', 'crypto']
    })
  ),
  // The engine is pure: data in, data out. Shared types are all it sees from outside.
  ...layer('engine', { types: sharedLayers }),
  ...layer('db', {
    may: ['domain', 'shared'],
    packages: ['drizzle-orm', 'better-sqlite3', 'zod'],
    builtins: ['fs', 'os', 'path']
  }),
  // Tokens read their encodings' rank tables from the tokenizer package's own files.
  ...layer('tokens', {
    may: ['domain', 'models'],
    packages: ['zod', 'tiktoken', 'gpt-tokenizer'],
    builtins: ['crypto', 'module', 'fs', 'path']
  }),
  ...layer('models', { may: ['domain'], packages: ['zod'] }),
  // http/net: the warm-up's one round trip to a server of its own on the loopback address (warm-http-client.ts).
  ...layer('providers', { may: ['domain', 'shared'], packages: ['ai', '@ai-sdk/*'], builtins: ['http', 'net'] }),
  // Everything about bringing other files in as chats: the formats, the bulk writer of the CLI's import and
  // the import thread, which parses a Distill export and writes it on a connection of its own.
  ...layer('imports', {
    may: ['domain', 'shared', 'imports', 'engine', 'models', 'tokens', 'workers'],
    types: ['app', 'db'],
    packages: ['zod', 'uuid'],
    builtins: ['worker_threads', 'fs', 'path', 'crypto']
  }),
  {
    from: { element: { type: 'imports' } },
    allow: {
      to: { element: { type: 'db' } },
      dependency: {
        specifiers: [
          'openSecondConnection',
          'restoreChat',
          'findImport',
          'inImportTransaction',
          'insertImportedMessages',
          'recordImport',
          'ImportedRow'
        ]
      }
    }
  },
  // Stored files: bytes on disk, rows in the database, their form in a request (PDF text read on a worker thread).
  ...layer('attachments', {
    may: [...sharedLayers, 'attachments', 'db', 'engine', 'models', 'providers', 'tokens', 'workers'],
    packages: ['ai', 'drizzle-orm', 'unpdf'],
    builtins: ['worker_threads', 'fs', 'path', 'crypto']
  }),
  // Worker threads and their clients: pure engine work on plain data, off the main thread.
  ...layer('workers', {
    may: ['domain', 'shared', 'engine', 'tokens', 'models', 'workers'],
    types: ['db'],
    builtins: ['worker_threads', 'fs', 'path', 'crypto']
  }),
  // The summary thread reads stored parts by id through the db's reader; the checkpoint thread opens a
  // connection of its own (restore-repo.ts). Nothing else of the database.
  {
    from: { element: { type: 'workers' } },
    allow: {
      to: { element: { type: 'db' } },
      dependency: { specifiers: ['storedPartsReader', 'openSecondConnection'] }
    }
  },
  // The CLI drives the app and its services like any other client; it never reaches into transport.
  // It also holds the work that drives a whole App (a replay), so it sees the engine's types.
  ...layer('cli', {
    may: [...sharedLayers, 'app', 'support', ...serviceTypes, 'imports', 'models', 'tokens', 'manifest'],
    types: ['engine'],
    packages: ['commander', 'cli-progress', 'uuid', '@streamparser/json'],
    builtins: anyBuiltin
  }),
  // The CLI maps a database that cannot be opened to a clear sentence; nothing more of the database.
  {
    from: { element: { type: 'cli' } },
    allow: { to: { element: { type: 'db' } }, dependency: { specifiers: ['DatabaseOpenError'] } }
  }
]

/**
 * Imports the layer check cannot see: a module name computed at run time, or a TypeScript form the resolver
 * does not follow. They fail everywhere in production code, so every dependency goes through the list above.
 */
const hiddenImports = [
  {
    selector: 'ImportExpression[source.type!="Literal"]',
    message: 'Import a module by its literal name, so the layer check can see it.'
  },
  {
    selector: 'CallExpression[callee.name="require"][arguments.0.type!="Literal"]',
    message: 'Require a module by its literal name, so the layer check can see it.'
  },
  {
    selector: 'TSImportEqualsDeclaration > TSExternalModuleReference',
    message: 'Use `import`: `import x = require()` is invisible to the layer check.'
  },
  { selector: 'TSImportType', message: 'Use `import type`: an inline `import()` type is invisible to the layer check.' }
]

/** Node's back doors to its built-ins, which no `import` line shows. */
const hiddenBuiltins = ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen'].map((property) => ({
  object: 'process',
  property,
  message: 'Import the built-in by name, so the layer check can see it.'
}))

/**
 * The engine's global object: clocks, timers, randomness, I/O and the host. Banned as names (scope-aware, so
 * neither an alias nor a property of `globalThis` gets past), which `.mts` and `.js` engine files meet too.
 */
const impureGlobals = [
  ...[
    'globalThis',
    'global',
    'window',
    'self',
    'eval',
    'Function',
    'require',
    'module',
    'exports',
    '__dirname',
    '__filename'
  ],
  ...[
    'performance',
    'Intl',
    'setTimeout',
    'setInterval',
    'setImmediate',
    'queueMicrotask',
    'requestAnimationFrame',
    'requestIdleCallback'
  ],
  ...[
    'clearTimeout',
    'clearInterval',
    'clearImmediate',
    'crypto',
    'process',
    'Buffer',
    'navigator',
    'document',
    'location'
  ],
  ...[
    'fetch',
    'XMLHttpRequest',
    'WebSocket',
    'EventSource',
    'Worker',
    'MessageChannel',
    'BroadcastChannel',
    'localStorage',
    'sessionStorage',
    'indexedDB'
  ],
  ...['console', 'Atomics', 'SharedArrayBuffer', 'WebAssembly']
]

/**
 * `Date` and `Math` are pure but for the clock and the dice. In the engine they are used in place only:
 * `new Date(t)`, `Date.UTC(…)`, `Date.parse(…)`, `x instanceof Date`, `Math.max(…)`; never `Date.now()`, `new Date()`,
 * `Math.random()`, nor stored or passed as a value (an alias would carry the clock past this check).
 */
const inPlaceGlobals = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      Date: 'The engine is pure: take the time as an argument (new Date(t), Date.UTC and Date.parse are fine).',
      Math: 'The engine is pure: take ids or seeds as arguments (Math.random is the only Math it may not use).'
    }
  },
  create(context) {
    const member = (node, id) => node.type === 'MemberExpression' && node.object === id && !node.computed
    const allowed = {
      Date: (parent, id) =>
        (parent.type === 'NewExpression' &&
          parent.callee === id &&
          parent.arguments.length > 0 &&
          parent.arguments[0].type !== 'SpreadElement') ||
        (member(parent, id) && ['UTC', 'parse'].includes(parent.property.name)) ||
        (parent.type === 'BinaryExpression' && parent.operator === 'instanceof' && parent.right === id),
      Math: (parent, id) => member(parent, id) && parent.property.name !== 'random'
    }
    return {
      'Program:exit'(program) {
        const scope = context.sourceCode.getScope(program)
        for (const name of Object.keys(allowed)) {
          const references = [
            ...(scope.set.get(name)?.references ?? []),
            ...scope.through.filter((ref) => ref.identifier.name === name)
          ]
          for (const ref of references) {
            if (ref.isValueReference === false || allowed[name](ref.identifier.parent, ref.identifier)) continue
            context.report({ node: ref.identifier, messageId: name })
          }
        }
      }
    }
  }
}

const engineImpurities = {
  'no-restricted-globals': [
    'error',
    ...impureGlobals.map((name) => ({
      name,
      message: 'The engine is pure: no clocks, timers, randomness, I/O, logging or host globals.'
    }))
  ],
  'no-restricted-syntax': [
    'error',
    ...hiddenImports,
    { selector: 'ImportExpression', message: 'The engine is pure: it loads nothing at run time.' },
    {
      selector: 'MetaProperty[meta.name="import"]',
      message: 'The engine is pure: it does not know where its files live.'
    }
  ],
  'distill/in-place-globals': 'error'
}

export default tseslint.config(
  {
    // Output and generated files, not sources: builds (out/, bench-out/), installed packages, drizzle-kit's
    // migrations (never hand-edited), and Playwright's reports and artifacts.
    ignores: [
      'out/**',
      'bench-out/**',
      'node_modules/**',
      'drizzle/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }]
    }
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    // Every file ESLint lints belongs to an element: a file in a new folder, or a new file beside the
    // single-file elements, fails until the list above gives it a layer.
    files: [`**/*.${code}`],
    plugins: { boundaries, distill: { rules: { 'in-place-globals': inPlaceGlobals } } },
    settings: {
      'import/resolver': {
        node: { extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'] }
      },
      'boundaries/elements': elements,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
      'boundaries/legacy-warnings': false
    },
    rules: { 'boundaries/no-unknown-files': 'error' }
  },
  {
    // Tests may reach across layers (they build whole apps); production code under src/ follows the layers.
    files: [`src/**/*.${code}`],
    ignores: unitTests,
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          checkAllOrigins: true,
          checkUnknownLocals: true,
          message:
            '{{from.element.type}} may not import {{to.element.type}}{{to.module.source}} (see the layer list in eslint.config.mjs)',
          policies: layerPolicies
        }
      ],
      'no-restricted-syntax': ['error', ...hiddenImports],
      'no-restricted-properties': ['error', ...hiddenBuiltins],
      // Test helpers live in test/ and beside the code as *.test files, and never ship: production code may not reach them.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/test/**', '**/e2e/**', '**/*.test', '**/*.test.*', 'vitest', 'fast-check'],
              message: 'Test support stays out of production code.'
            }
          ]
        }
      ]
    }
  },
  {
    files: [`src/main/engine/**/*.${code}`],
    ignores: unitTests,
    rules: engineImpurities
  },
  {
    files: [`src/renderer/**/*.${code}`],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules
  }
)
