import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * Layers per DESIGN §2, stated as an allow-list: every import a layer makes, local or external, must match a
 * policy below, so a new kind of dependency fails lint until someone decides it belongs. Paths are resolved
 * (Node resolver with TypeScript extensions; the project uses no path aliases), so `../../main/x` and `../x` land on the same element whatever the spelling.
 */
const elements = [
  { type: 'contract', pattern: 'src/shared/contract', partialMatch: false },
  { type: 'domain', pattern: 'src/shared/domain', partialMatch: false },
  { type: 'shared', pattern: 'src/shared/*.ts', mode: 'full' },
  { type: 'renderer', pattern: 'src/renderer', partialMatch: false },
  { type: 'preload', pattern: 'src/preload', partialMatch: false },
  // The Electron shell: the only code that may import electron.
  { type: 'shell', pattern: ['src/main/index.ts', 'src/main/window.ts'], mode: 'full' },
  { type: 'shell', pattern: 'src/main/platform', partialMatch: false },
  // Composition roots: wire services to a database, a transport and a logger.
  { type: 'app', pattern: ['src/main/app.ts', 'src/main/browser-mode.ts'], mode: 'full' },
  // Single-file elements: each file is its own element, so a layer lists itself to import its neighbours.
  { type: 'support', pattern: ['src/main/logger.ts', 'src/main/data-location.ts'], mode: 'full' },
  ...['transport', 'services', 'engine', 'db', 'tokens', 'models', 'providers', 'importers', 'cli', 'attachments', 'workers'].map((layer) => ({
    type: layer,
    pattern: `src/main/${layer}`,
    partialMatch: false
  })),
  { type: 'test-support', pattern: 'test', partialMatch: false },
  { type: 'e2e', pattern: 'e2e', partialMatch: false },
  { type: 'manifest', pattern: 'package.json', mode: 'full' }
]

const sharedLayers = ['contract', 'domain', 'shared']
const mainCore = ['services', 'engine', 'db', 'tokens', 'models', 'providers', 'importers', 'attachments', 'workers']

/**
 * What one layer may import. `may`: layers imported for values; `types`: layers imported with `import type` only;
 * `packages`: npm packages (subpaths included); `builtins`: node core modules (`node:` prefix or not).
 */
function layer(from, { may = [], types = [], packages = [], builtins = [] }) {
  const policies = []
  if (may.length > 0) policies.push({ from: { element: { type: from } }, allow: { to: { element: { type: may } } } })
  if (types.length > 0) {
    policies.push({ from: { element: { type: from } }, allow: { to: { element: { type: types } }, dependency: { kind: 'type' } } })
  }
  if (packages.length > 0) {
    policies.push({ from: { element: { type: from } }, allow: { to: { module: { origin: 'external', source: packages } } } })
  }
  if (builtins.length > 0) {
    const names = builtins.flatMap((name) => [name, `node:${name}`])
    policies.push({ from: { element: { type: from } }, allow: { to: { module: { origin: 'core', source: names } } } })
  }
  return policies
}

const anyBuiltin = ['*']

const layerPolicies = [
  // shared/ is loaded by every process, the renderer included: zod is its only dependency.
  ...layer('domain', { packages: ['zod'] }),
  ...layer('contract', { may: ['domain', 'shared'], packages: ['zod'] }),
  ...layer('shared', { may: ['domain'], types: ['contract'], packages: ['zod'] }),
  // The renderer reaches the main process through its api client; the contract is types only.
  ...layer('renderer', {
    may: ['domain', 'shared'],
    types: ['contract'],
    packages: ['react', 'react-dom', 'zustand', 'sonner', '@radix-ui/*', '@tanstack/*', 'react-markdown', 'remark-gfm', 'remark-breaks', 'rehype-highlight']
  }),
  ...layer('preload', { types: ['contract'], packages: ['electron'] }),
  ...layer('shell', {
    may: [...sharedLayers, 'shell', 'app', 'support', 'transport', 'services', 'db'],
    packages: ['electron'],
    builtins: anyBuiltin
  }),
  ...layer('app', {
    may: [...sharedLayers, 'app', 'support', 'transport', ...mainCore, 'manifest'],
    packages: ['uuid'],
    builtins: anyBuiltin
  }),
  ...layer('support', { types: ['services'], builtins: ['fs', 'os', 'path'] }),
  // Transport stays thin: it calls services, never the database or the engine.
  ...layer('transport', {
    may: [...sharedLayers, 'services', 'support'],
    types: ['app'],
    builtins: ['fs', 'http', 'net', 'path', 'crypto', 'stream']
  }),
  ...layer('services', {
    may: [...sharedLayers, 'support', ...mainCore.filter((name) => name !== 'services')],
    types: ['app'],
    packages: ['ai', 'uuid'],
    builtins: ['fs', 'path', 'crypto']
  }),
  // The engine is pure: data in, data out. Shared types are all it sees from outside.
  ...layer('engine', { types: sharedLayers }),
  ...layer('db', { may: ['domain', 'shared'], packages: ['drizzle-orm', 'better-sqlite3', 'zod'], builtins: ['fs', 'os', 'path'] }),
  ...layer('tokens', { may: ['domain', 'models'], packages: ['zod', 'tiktoken', 'gpt-tokenizer'], builtins: ['crypto', 'module'] }),
  ...layer('models', { may: ['domain'], packages: ['zod'] }),
  ...layer('providers', { may: ['domain', 'shared'], packages: ['ai', '@ai-sdk/*'] }),
  ...layer('importers', { may: ['domain'], packages: ['zod'] }),
  // Stored files: bytes on disk, rows in the database, their form in a request (PDF text read on a worker thread).
  ...layer('attachments', {
    may: [...sharedLayers, 'attachments', 'db', 'engine', 'models', 'providers', 'tokens', 'workers'],
    packages: ['ai', 'drizzle-orm', 'unpdf'],
    builtins: ['fs', 'path', 'crypto']
  }),
  // Worker threads and their clients: pure engine work on plain data, and reading PDFs (unpdf), off the main thread.
  ...layer('workers', { may: ['domain', 'shared', 'engine', 'tokens', 'models', 'workers'], packages: ['better-sqlite3', 'unpdf'], builtins: ['worker_threads', 'fs', 'path'] }),
  // The CLI drives the app and its services like any other client; it never reaches into transport.
  ...layer('cli', {
    may: [...sharedLayers, 'app', 'support', 'services', 'importers', 'models', 'tokens', 'manifest'],
    packages: ['commander', 'cli-progress'],
    builtins: anyBuiltin
  }),
  // The CLI maps a database that cannot be opened to a clear sentence, nothing more.
  { from: { element: { type: 'cli' } }, allow: { to: { element: { type: 'db' } }, dependency: { specifiers: 'DatabaseOpenError' } } }
]

/** Clocks and randomness the engine must receive from its caller. */
const engineImpurities = {
  'no-restricted-syntax': [
    'error',
    { selector: 'NewExpression[callee.name="Date"][arguments.length=0]', message: 'The engine is pure: take the time as an argument (a Date built from a given time is fine).' },
    { selector: 'CallExpression[callee.name="Date"]', message: 'The engine is pure: take the time as an argument.' }
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'The engine is pure: take the time as an argument.' },
    { object: 'performance', property: 'now', message: 'The engine is pure: measure in the caller.' },
    { object: 'Math', property: 'random', message: 'The engine is pure: take ids or seeds as arguments.' },
    { object: 'crypto', property: 'randomUUID', message: 'The engine is pure: take ids as arguments.' },
    { object: 'crypto', property: 'getRandomValues', message: 'The engine is pure: take ids or seeds as arguments.' }
  ],
  'no-restricted-globals': [
    'error',
    ...['performance', 'crypto', 'fetch', 'setTimeout', 'setInterval', 'process'].map((name) => ({
      name,
      message: 'The engine is pure: no clocks, timers, randomness or I/O.'
    }))
  ]
}

export default tseslint.config(
  { ignores: ['out/**', 'bench-out/**', 'node_modules/**', 'drizzle/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**'] },
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
    // Tests may reach across layers (they build whole apps); production code under src/ follows the layers.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'] } },
      'boundaries/elements': elements,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
      'boundaries/legacy-warnings': false
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          checkAllOrigins: true,
          checkUnknownLocals: true,
          message: '{{from.element.type}} may not import {{to.element.type}}{{to.module.source}} (see the layer list in eslint.config.mjs)',
          policies: layerPolicies
        }
      ]
    }
  },
  {
    // Test helpers live in test/ and never ship: production code may not reach them.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/test/**', '**/e2e/**', 'vitest', 'fast-check'], message: 'Test support stays out of production code.' }] }
      ]
    }
  },
  {
    files: ['src/main/engine/**/*.ts'],
    ignores: ['src/main/engine/**/*.test.ts'],
    rules: engineImpurities
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules
  }
)
