// The longest stall of browser mode's event loop while "Import chat" sends a ~40 MB Distill export:
// `npx tsx bench/import-stall.ts messages` (13,000 messages of ~3 KB) or `… files` (six 5 MB images).
// A timer that should fire every 2 ms records the longest gap; the request is sent by curl in another
// process, so this loop does only the server's work. On a loaded machine, run it under `nice -n -15`:
// the gaps then measure this process rather than the scheduler.
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBrowserMode } from '../src/main/browser-mode'
import { silentLogger } from '../src/main/logger'
import { samplePng } from '../test/support/sample-files'
import { exportMessages } from './export-messages'

const kind = process.argv[2] === 'files' ? 'files' : 'messages'
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/** A version 1 export: many messages, or a few with six large images. */
function exportText(): string {
  const n = kind === 'messages' ? 13_000 : 10
  const messages = exportMessages(n, kind === 'messages' ? 24 : 1)
  const attachments = []
  if (kind === 'files') {
    for (let f = 0; f < 6; f++) {
      const bytes = Buffer.concat([samplePng(1000 + f, 800), randomBytes(4_900_000)])
      attachments.push({ hash: sha(bytes), mediaType: 'image/png', size: bytes.length, data: bytes.toString('base64') })
      messages[0]!.parts.push({
        type: 'attachment',
        filename: `photo${f}.png`,
        mediaType: 'image/png',
        size: bytes.length,
        hash: sha(bytes)
      })
    }
  }
  const session = {
    id: 's',
    title: 'Big',
    systemPrompt: null,
    provider: 'openai',
    modelId: 'gpt-4o',
    strategy: null,
    autoCompress: null,
    createdAt: 1,
    updatedAt: 1
  }
  return JSON.stringify(
    {
      format: 'distill-chat',
      version: 1,
      exportedAt: new Date().toISOString(),
      session,
      messages,
      snapshots: [],
      attachments
    },
    null,
    2
  )
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'distill-import-stall-'))
  const text = exportText()
  const body = join(dir, 'body.json')
  writeFileSync(body, JSON.stringify({ text }))
  const server = await startBrowserMode({ dbFile: join(dir, 'distill.db'), log: silentLogger, token: 'bench' })
  let longest = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last - 2)
    last = now
  }, 2)
  const started = performance.now()
  const url = `http://127.0.0.1:${server.port}/rpc/sessions.import`
  const headers = ['-H', 'Authorization: Bearer bench', '-H', 'Content-Type: application/json']
  const answer = await new Promise<string>((resolve) =>
    execFile(
      'curl',
      ['-s', '-X', 'POST', ...headers, '--data-binary', `@${body}`, url],
      { maxBuffer: 1e8 },
      (_err, stdout) => resolve(stdout)
    )
  )
  clearInterval(timer)
  const took = performance.now() - started
  await server.close()
  rmSync(dir, { recursive: true, force: true })
  console.log(`${kind}: ${(text.length / 1e6).toFixed(1)} MB export, ${answer.slice(0, 120)}`)
  console.log(`imported in ${took.toFixed(0)} ms; longest event-loop stall ${longest.toFixed(0)} ms`)
  process.exit(0)
}
void main()
