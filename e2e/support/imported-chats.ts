import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FakeProvider } from '../fake-provider'
import { startDistill, type DistillServer } from './distill-server'
import { fakeProviderEnv, test } from './fixtures'

const ROOT = join(__dirname, '..', '..')

/** One conversation of a ChatGPT export: messages alternate user and assistant, a minute apart. */
export function chatGptConversation(title: string, texts: readonly string[], createTime: number) {
  const mapping: Record<string, unknown> = { root: { parent: null, message: null } }
  texts.forEach((text, i) => {
    mapping[`m${i}`] = {
      parent: i === 0 ? 'root' : `m${i - 1}`,
      message: {
        author: { role: i % 2 ? 'assistant' : 'user' },
        content: { content_type: 'text', parts: [text] },
        create_time: createTime + i * 60
      }
    }
  })
  return { title, create_time: createTime, mapping, current_node: `m${texts.length - 1}` }
}

/**
 * A Distill server on a database that `distill import` filled from one ChatGPT export, the way a
 * person brings their history in (much faster than sending each message through the app).
 * `stop` also removes the export and the database (unless told to keep the data).
 */
export async function serveImported(conversations: readonly unknown[], fake: FakeProvider): Promise<DistillServer> {
  const dir = mkdtempSync(join(tmpdir(), 'distill-imported-'))
  const file = join(dir, 'conversations.json')
  writeFileSync(file, JSON.stringify(conversations))
  const dbFile = join(dir, 'distill.db')
  execFileSync('npx', ['--no-install', 'distill', '--db', dbFile, 'import', file], { cwd: ROOT, stdio: 'pipe' })
  const server = await startDistill({ dbFile, env: fakeProviderEnv(fake) })
  return {
    ...server,
    async stop(options) {
      await server.stop(options)
      if (!options?.keepData) rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Each test of the file gets a fresh server on these imported conversations; returns it. */
export function serveImportedEach(conversations: () => readonly unknown[]): () => DistillServer {
  let server: DistillServer | undefined
  test.beforeEach(async ({ fake }) => {
    test.setTimeout(300_000)
    server = await serveImported(conversations(), fake)
  })
  test.afterEach(async () => {
    await server?.stop()
  })
  return () => server!
}
