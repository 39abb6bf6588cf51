import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FakeProvider } from '../../../../e2e/fake-provider'
import type { App } from '../../app'
import { listAllVersions } from '../../db/repositories/messages/message-versions-repo'
import { messageText } from '../../../shared/domain/chat-message'
import { runCli } from '../../../../test/support/run-cli'
import { useTempDir } from '../../../../test/support/temp-dir'
import { useFakeProvider, useOpenApps } from '../../../../test/support/test-apps'

let fake!: FakeProvider
useFakeProvider((f) => (fake = f))

describe('export and import keep every version of a chat', () => {
  const tempDir = useTempDir()
  const apps = useOpenApps()
  const open = (dbFile: string) =>
    apps.open({ dbFile, env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseURLs.openai } })

  async function turn(app: App, id: string, text: string, reply: string) {
    fake.script([{ reply }])
    app.services.chat.send(id, text)
    await app.services.chat.idle()
  }

  /**
   * Colour → Blue, fruit → Apple; the reply regenerated (Green) and then switched back to Blue, so
   * ‹ 1/2 › is in use and Green sits aside, with its own follow-up edited (stone → metal) inside it.
   */
  async function chatWithVersions(app: App): Promise<string> {
    const { id } = app.services.sessions.create('Colours')
    app.services.sessions.update(id, { provider: 'openai', modelId: 'gpt-4o' })
    await turn(app, id, 'Name a colour', 'Blue')
    await turn(app, id, 'And a fruit?', 'Apple')
    const blue = app.services.chat.messages(id)[1]!
    fake.script([{ reply: 'Green' }])
    app.services.chat.regenerate(id, blue.id)
    await app.services.chat.idle()
    await turn(app, id, 'And a stone?', 'Granite')
    fake.script([{ reply: 'Iron' }])
    app.services.chat.edit(id, app.services.chat.messages(id)[2]!.id, 'And a metal?')
    await app.services.chat.idle()
    app.services.chat.switchVersion(id, app.services.chat.messages(id)[1]!.id, 1)
    return id
  }

  /** Every stored message, versions set aside included, with version links as positions. */
  function stored(app: App, id: string) {
    const rows = listAllVersions(app.database.db, id)
    const at = (ref: string | null) => (ref === null ? null : rows.findIndex((r) => r.id === ref))
    return rows.map((m) => ({
      seq: m.seq,
      role: m.role,
      status: m.status,
      createdAt: m.createdAt,
      parts: m.parts,
      tokenCount: m.tokenCount,
      versionGroup: at(m.versionGroup),
      hiddenIn: at(m.hiddenIn)
    }))
  }

  it('round-trips a chat with ‹ 1/2 › versions message by message, exported while the app holds the database', async () => {
    const dir = tempDir()
    const source = open(join(dir, 'source.db'))
    const id = await chatWithVersions(source)
    const shown = source.services.chat.messages(id)
    expect(shown.map((m) => messageText(m.parts))).toEqual(['Name a colour', 'Blue', 'And a fruit?', 'Apple'])
    expect(shown[1]!.version).toEqual({ number: 1, count: 2 })

    // The app still owns source.db: export only reads, so it works anyway.
    const file = join(dir, 'colours.distill.json')
    await runCli('--db', join(dir, 'source.db'), 'export', '--session', id, '--format', 'json', '--out', file)
    const exported = JSON.parse(readFileSync(file, 'utf8'))
    expect(exported.version).toBe(2)
    // Other tools read the conversation as it stands; the versions aside travel beside it.
    expect(exported.messages.map((m: { content: string }) => m.content)).toEqual([
      'Name a colour',
      'Blue',
      'And a fruit?',
      'Apple'
    ])
    expect(exported.versions.map((m: { content: string }) => m.content)).toEqual([
      'Green',
      'And a stone?',
      'Granite',
      'And a metal?',
      'Iron'
    ])

    const printed = await runCli('--db', join(dir, 'target.db'), 'import', file)
    expect(printed).toMatch(/^Imported "Colours" \(4 messages, 5 messages in other versions\) as /)
    const target = open(join(dir, 'target.db'))
    const newId = target.services.sessions.list()[0]!.id
    expect(stored(target, newId)).toEqual(stored(source, id))
    const copy = target.services.chat.messages(newId)
    expect(copy.map((m) => [messageText(m.parts), m.version ?? null])).toEqual(
      shown.map((m) => [messageText(m.parts), m.version ?? null])
    )
    // The imported chat switches versions like the original.
    const green = target.services.chat.switchVersion(newId, copy[1]!.id, 2)
    expect(green.messages.map((m) => messageText(m.parts))).toEqual(['Green', 'And a metal?', 'Iron'])
    expect(green.messages[1]!.version).toEqual({ number: 2, count: 2 })
    expect(target.services.chat.messages(newId)).toHaveLength(4)
  })

  it('says so when the same export is imported again, and imports it again with --again', async () => {
    const dir = tempDir()
    const source = open(join(dir, 'source.db'))
    const id = await chatWithVersions(source)
    const file = join(dir, 'colours.distill.json')
    await runCli('--db', join(dir, 'source.db'), 'export', '--session', id, '--format', 'json', '--out', file)
    await apps.close(source)

    const db = join(dir, 'target.db')
    const first = JSON.parse(await runCli('--db', db, 'import', file, '--json')) as { sessions: Array<{ id: string }> }
    await expect(runCli('--db', db, 'import', file)).rejects.toThrow(
      new RegExp(
        `^This chat was already imported on \\d{4}-\\d\\d-\\d\\d as "Colours" \\(${first.sessions[0]!.id}\\)\\. Use --again to import it anyway\\.$`
      )
    )
    // The same chat exported from the import is the same conversation too.
    const target = open(db)
    const res = await target.router.call('sessions.import', { text: readFileSync(file, 'utf8') })
    expect(res).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(/^This chat was already imported on .* Nothing was imported\.$/)
      }
    })
    await apps.close(target)

    await runCli('--db', db, 'import', file, '--again')
    const list = open(db).services.sessions.list()
    // The second copy says it is one: two chats of the same name would be told apart by nothing.
    expect(list.map((s) => s.title)).toEqual(['Colours (copy)', 'Colours'])
  })
})
