import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { App } from '../../app'
import { manualClock, useTempDir } from '../../../../test/support/temp-dir'
import { useOpenApps } from '../../../../test/support/test-apps'

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

  it('names the project in the export; an import joins the project of that name, or makes it', async () => {
    const source = open('source.db')
    const project = source.services.projects.create('Greece 2026', true)
    const chat = source.services.sessions.create('Trip planning')
    source.services.sessions.update(chat.id, { projectId: project.id })
    await source.services.chat.append(chat.id, { role: 'user', parts: [{ type: 'text', text: 'Ferry at 7:40.' }] })
    const text = await exported(source, chat.id)
    expect(JSON.parse(text).session.project).toBe('Greece 2026')

    // Another database without the project: it is made (Recall across chats stays off until the user allows it).
    const target = open('target.db')
    const first = await imported(target, text)
    const made = target.services.projects.list()
    expect(made).toEqual([expect.objectContaining({ name: 'Greece 2026', recallAcrossChats: false })])
    expect(target.services.sessions.get(first).projectId).toBe(made[0]!.id)

    // The same database: the chat joins the existing project, no twin is made.
    const again = await source.router.call('sessions.import', {
      text: text.replace('Ferry at 7:40.', 'Ferry at 8:10.')
    })
    if (!again.ok) throw new Error(again.error.message)
    expect(source.services.projects.list()).toHaveLength(1)
    expect(source.services.sessions.get((again.data as { id: string }).id).projectId).toBe(project.id)
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
