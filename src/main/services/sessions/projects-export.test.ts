import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { App } from '../../app'
import { manualClock, useTempDir } from '../../../../test/support/temp-dir'
import { useOpenApps } from '../../../../test/support/test-apps'
import { importDistillChat } from '../imports/import-distill-chat'

describe('export and import carry the chat’s project', () => {
  const tempDir = useTempDir()
  const apps = useOpenApps()
  const open = (name: string) => apps.open({ dbFile: join(tempDir(), name), clock: manualClock() })

  async function exported(app: App, id: string): Promise<string> {
    const res = await app.router.call('sessions.export', { id, format: 'json' })
    if (!res.ok) throw new Error(res.error.message)
    return (res.data as { text: string }).text
  }
  async function imported(app: App, text: string): Promise<string> {
    const res = await app.router.call('sessions.import', { text })
    if (!res.ok) throw new Error(res.error.message)
    return (res.data as { id: string }).id
  }

  it('names the project in the export; an import leaves the chat out of it unless asked, then joins it or makes it', async () => {
    const source = open('source.db')
    const project = source.services.projects.create('Älpha 2026', true)
    const chat = source.services.sessions.create('Trip planning')
    source.services.sessions.update(chat.id, { projectId: project.id })
    await source.services.chat.append(chat.id, { role: 'user', parts: [{ type: 'text', text: 'Ferry at 7:40.' }] })
    const text = await exported(source, chat.id)
    expect(JSON.parse(text).session.project).toBe('Älpha 2026')

    // Imported as is: unfiled (its text would otherwise reach the project's chats through Recall), the name said.
    const target = open('target.db')
    const res = await target.router.call('sessions.import', { text })
    if (!res.ok) throw new Error(res.error.message)
    expect(res.data).toMatchObject({ project: 'Älpha 2026' })
    expect(target.services.sessions.get((res.data as { id: string }).id).projectId).toBeNull()
    expect(target.services.projects.list()).toEqual([])

    // Asked to join: another database makes it (Recall across chats off until the user allows it)…
    const joined = await importDistillChat(target.services, new TextEncoder().encode(text), {
      source: 'trip.json',
      joinProject: true,
      again: true
    })
    const made = target.services.projects.list()
    expect(made).toEqual([expect.objectContaining({ name: 'Älpha 2026', recallAcrossChats: false })])
    expect(target.services.sessions.get(joined.id).projectId).toBe(made[0]!.id)

    // …and the same database joins the existing one, whatever the case of the name in any script: no twin.
    const shouting = text.replace('"Älpha 2026"', '"ÄLPHA 2026"').replace('Ferry at 7:40.', 'Ferry at 8:10.')
    const again = await importDistillChat(source.services, new TextEncoder().encode(shouting), {
      source: 'trip.json',
      joinProject: true
    })
    expect(source.services.projects.list()).toHaveLength(1)
    expect(source.services.sessions.get(again.id).projectId).toBe(project.id)
  })

  it('a chat in no project exports without the field, and an export without it imports unfiled', async () => {
    const app = open('plain.db')
    const chat = app.services.sessions.create('Loose chat')
    await app.services.chat.append(chat.id, { role: 'user', parts: [{ type: 'text', text: 'Hello there.' }] })
    const text = await exported(app, chat.id)
    expect('project' in JSON.parse(text).session).toBe(false)
    const other = open('other.db')
    expect(other.services.sessions.get(await imported(other, text)).projectId).toBeNull()
  })
})
