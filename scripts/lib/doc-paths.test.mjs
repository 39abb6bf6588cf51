// Every repository path the docs name in backticks exists: docs/*.md and README.md are read, each
// backticked span is split into words, and a word that looks like a path from the repository's root
// (`src/…`, `scripts/…`, `bench/…`, …, with a file extension or ending in `/`) must be a file or folder.
// A path the docs give from inside a folder (`services/chat/chat-service.ts`) must end some file's path
// (or name a file of an installed package), and a relative Markdown link must lead to a file.
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const roots = ['src', 'scripts', 'bench', 'e2e', 'docs', 'test', 'resources', 'drizzle', 'bin', 'fixtures']
/** Made by a build or a run, not stored (.gitignore): named by the docs, absent from a fresh checkout. */
const generated = ['e2e/artifacts/', 'test-results/', 'playwright-report/', 'bench-out/', 'out/']
/** Extensions of the files a partial path may name (a URL path or a MIME type has none of them). */
const sourceExtension = /\.(ts|tsx|mts|cts|mjs|cjs|js|json|sql|css|md|yml)$/

const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
]

/** Every stored file's path from the root, for the paths the docs give from inside a folder. */
function listFiles(dir = root, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || ['node_modules', 'out', 'bench-out', 'test-results'].includes(entry.name))
      continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) listFiles(path, out)
    else out.push(relative(root, path).split('\\').join('/'))
  }
  return out
}

/**
 * The words of each backticked span (a span may wrap onto the next line; fenced blocks are left out),
 * trimmed of the punctuation prose puts around a path and of a `#fragment`, with their line.
 */
function backtickedWords(text) {
  const prose = text.replace(/^```.*$[\s\S]*?^```.*$/gm, (block) => block.replace(/[^\n]/g, ' '))
  const words = []
  for (const match of prose.matchAll(/`([^`\n]+(?:\n[^`\n]+)?)`/g)) {
    const line = prose.slice(0, match.index).split('\n').length
    for (const raw of match[1].split(/\s+/)) {
      const word = raw
        .replace(/#.*$/, '')
        .replace(/^[("'[]+/, '')
        .replace(/[)"',;:.\]]+$/, '')
      if (word) words.push({ word, line })
    }
  }
  return words
}

/** Relative link targets of `[text](target)`, from the doc's own folder, with their line. */
function linkTargets(text) {
  const targets = []
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1].replace(/#.*$/, '')
    if (!target || /^[a-z]+:/i.test(target)) continue
    targets.push({ target, line: text.slice(0, match.index).split('\n').length })
  }
  return targets
}

/** A path from the repository's root: a known first folder, then a file with an extension or a folder. */
function isRootPath(word) {
  if (!roots.some((r) => word.startsWith(`${r}/`))) return false
  if (/[*{}<>…|$]/.test(word)) return false // a pattern or a placeholder, not one path
  return word.endsWith('/') || /\/[^/]*[^/.]\.[a-z0-9]+$/i.test(word)
}

/** A path given from inside a folder (`stores/chat/thread.ts`): a word of folders ending in a source file. */
function isPartialPath(word) {
  if (isRootPath(word) || !word.includes('/') || !sourceExtension.test(word)) return false
  if (/[*{}<>…|$:]/.test(word) || word.startsWith('/') || word.startsWith('.')) return false
  return /^[\w.-]+(\/[\w.-]+)+$/.test(word) && !generated.some((g) => word.startsWith(g))
}

describe('paths named in the docs', () => {
  it('recognizes paths and nothing else', () => {
    assert.ok(isRootPath('src/main/app.ts'))
    assert.ok(isRootPath('scripts/lib/'))
    assert.ok(isRootPath('drizzle/0001_messages_fts.sql'))
    assert.ok(!isRootPath('src/main/engine/**'))
    assert.ok(!isRootPath('src/shared/*.ts'))
    assert.ok(!isRootPath('text/event-stream'))
    assert.ok(!isRootPath('src/shared/domain'), 'a folder without its slash is left alone')
    assert.ok(isPartialPath('services/chat/chat-service.ts'))
    assert.ok(!isPartialPath('text/event-stream'))
    assert.ok(!isPartialPath('/api/ps'))
    assert.ok(!isPartialPath('out/main/index.js'))
    assert.deepEqual(
      backtickedWords(
        'see `npx vitest bench --run\nbench/search.bench.ts`, (`src/main/`), `docs/quality.md#method`.'
      ).map((w) => [w.word, w.line]),
      [
        ['npx', 1],
        ['vitest', 1],
        ['bench', 1],
        ['--run', 1],
        ['bench/search.bench.ts', 1],
        ['src/main/', 2],
        ['docs/quality.md', 2]
      ]
    )
    assert.deepEqual(
      backtickedWords('```sh\nnpm run `x`\n```\n`src/a.ts`').map((w) => [w.word, w.line]),
      [['src/a.ts', 4]]
    )
    assert.deepEqual(linkTargets('[a](decisions.md) [b](https://x.org) [c](#here) [d](quality.md#method)'), [
      { target: 'decisions.md', line: 1 },
      { target: 'quality.md', line: 1 }
    ])
  })

  const files = listFiles()
  /** A partial path ends some file's path, or names a file of an installed package (`app-builder-lib/scheme.json`). */
  const isStoredFile = (word) =>
    files.some((f) => f === word || f.endsWith(`/${word}`)) || existsSync(join(root, 'node_modules', word))
  for (const doc of docs) {
    it(`${doc} names only paths that exist`, () => {
      const text = readFileSync(join(root, doc), 'utf8')
      const words = backtickedWords(text)
      const missing = []
      for (const { word, line } of words) {
        if (generated.some((g) => word.startsWith(g))) continue
        if (isRootPath(word) && !existsSync(join(root, word))) missing.push(`${doc}:${line} ${word}`)
        else if (isPartialPath(word) && !isStoredFile(word)) missing.push(`${doc}:${line} ${word}`)
      }
      for (const { target, line } of linkTargets(text)) {
        if (!existsSync(join(root, dirname(doc), target))) missing.push(`${doc}:${line} (${target})`)
      }
      assert.deepEqual(missing, [], `paths that do not exist:\n${missing.join('\n')}`)
    })
  }
})
