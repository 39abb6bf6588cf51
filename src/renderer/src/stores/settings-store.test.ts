import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../../shared/domain/settings'
import { installTransport } from '../api/client'
import { useSettingsStore } from './settings-store'

describe('the settings store', () => {
  it('keeps settings that arrived by event while an older read was still on its way', async () => {
    let answer: (() => void) | undefined
    installTransport({
      mode: 'browser',
      // The read is answered late, with what was saved when it was asked (notifications on).
      request: (route) =>
        new Promise((resolve) => {
          answer = () =>
            resolve(
              route === 'settings.get'
                ? { ok: true, data: DEFAULT_SETTINGS }
                : { ok: false, error: { code: 'invalid_input', message: route } }
            )
        }),
      subscribe: () => () => {},
      onConnection: () => () => {}
    })
    const loading = useSettingsStore.getState().load()
    // Meanwhile another window switched notifications off.
    useSettingsStore.getState().apply({ ...DEFAULT_SETTINGS, notifications: false })
    answer!()
    await loading
    expect(useSettingsStore.getState().settings?.notifications).toBe(false)

    // A read that starts after it takes what the server says.
    const again = useSettingsStore.getState().load()
    answer!()
    await again
    expect(useSettingsStore.getState().settings?.notifications).toBe(DEFAULT_SETTINGS.notifications)
  })

  it('keeps the later of two reads when the earlier one answers last', async () => {
    const pending: Array<(notifications: boolean) => void> = []
    installTransport({
      mode: 'browser',
      request: () =>
        new Promise((resolve) =>
          pending.push((notifications) => resolve({ ok: true, data: { ...DEFAULT_SETTINGS, notifications } }))
        ),
      subscribe: () => () => {},
      onConnection: () => () => {}
    })
    const first = useSettingsStore.getState().load() // asked before notifications were switched off
    const second = useSettingsStore.getState().load() // asked after (the stream opened and refetched)
    pending[1]!(false)
    await second
    pending[0]!(true)
    await first
    expect(useSettingsStore.getState().settings?.notifications).toBe(false)
  })
})
