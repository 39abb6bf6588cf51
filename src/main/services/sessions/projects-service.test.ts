import { describe, expect, it } from 'vitest'
import { manualClock } from '../../../../test/support/temp-dir'
import { useTestApps } from '../../../../test/support/test-apps'

describe('projects', () => {
  const openApp = useTestApps()

  it('lists a project’s chats whatever page of the chat list they are on', async () => {
    const clock = manualClock()
    const app = openApp({ clock })
    const project = app.services.projects.create('Garden')
    const old = app.services.sessions.create('Seeds to order')
    for (let i = 0; i < 3; i++) {
      clock.advance(1000)
      app.services.sessions.create(`Chat ${i}`)
    }
    app.services.sessions.update(old.id, { projectId: project.id })
    expect(app.services.sessions.page({ limit: 2 }).sessions.map((s) => s.title)).not.toContain('Seeds to order')
    const res = await app.router.call('projects.chats', { id: project.id })
    expect(res.ok && (res.data as Array<{ title: string }>).map((s) => s.title)).toEqual(['Seeds to order'])
  })

  it('refuses a move into a project that does not exist, and a blank name', async () => {
    const app = openApp()
    const chat = app.services.sessions.create('Loose')
    const moved = await app.router.call('sessions.update', { id: chat.id, projectId: 'nope' })
    expect(moved.ok ? null : moved.error.code).toBe('not_found')
    const blank = await app.router.call('projects.create', { name: '   ' })
    expect(blank.ok ? null : blank.error.code).toBe('invalid_input')
    const renamed = await app.router.call('projects.rename', {
      id: app.services.projects.create('Old').id,
      name: ' New name '
    })
    expect(renamed.ok && (renamed.data as { name: string }).name).toBe('New name')
  })
})
