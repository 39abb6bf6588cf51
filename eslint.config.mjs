import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const io = ['electron', 'better-sqlite3', 'drizzle-orm', 'drizzle-orm/*', 'ai', '@ai-sdk/*', 'node:*', 'fs', 'path', 'os', 'http', 'child_process']

/** Layering per DESIGN §2, enforced the way VS Code enforces its layers. */
const restrict = (patterns, paths = []) => ({
  'no-restricted-imports': ['error', { patterns, paths }]
})

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'drizzle/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**'] },
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
    // Only the Electron shell may import electron.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/index.ts', 'src/main/window.ts', 'src/main/platform/**'],
    rules: restrict([{ group: ['electron'], message: 'Only src/main/index.ts, window.ts and platform/ import electron.' }])
  },
  {
    // The engine is pure: no I/O, no frameworks, no clock.
    files: ['src/main/engine/**/*.ts'],
    ignores: ['src/main/engine/**/*.test.ts'],
    rules: {
      ...restrict([
        { group: io, message: 'The engine is pure: pass data in, get data out.' },
        { group: ['**/db/**', '**/services/**', '**/transport/**', '**/tokens/**', '**/models/**'], message: 'The engine depends on shared types only.' }
      ]),
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'Inject the clock.' }]
    }
  },
  {
    // Transport stays thin and speaks to services, never to the database directly.
    files: ['src/main/transport/**/*.ts'],
    ignores: ['src/main/transport/**/*.test.ts'],
    rules: restrict([
      { group: ['electron'], message: 'Transport is shared by IPC and HTTP; electron stays in platform/.' },
      { group: ['**/db/**', 'drizzle-orm', 'drizzle-orm/*', 'better-sqlite3'], message: 'Handlers call services, not the database.' }
    ])
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: restrict([{ group: io.concat(['**/main/**', '**/renderer/**']), message: 'shared/ is imported by every process: keep it free of runtime dependencies.' }])
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: restrict([{ group: ['**/main/**', '**/renderer/**', 'node:*'], message: 'The preload only bridges IPC.' }])
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/main/**', 'electron', 'node:*', 'better-sqlite3', 'drizzle-orm'], message: 'The renderer talks to the main process through the api client only.' },
            { group: ['**/shared/contract', '**/shared/contract/*'], allowTypeImports: true, message: 'Import the contract with `import type` only.' }
          ]
        }
      ]
    }
  }
)
