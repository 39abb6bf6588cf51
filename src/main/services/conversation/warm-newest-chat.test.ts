import { describe, expect, it } from 'vitest'
import { createApp } from '../../app'
import { silentLogger } from '../../logger'
import { warmNewestChat } from './warm-newest-chat'

describe('preparing the newest chat at open', () => {
  it('opens the app all the same when the newest chat cannot be read, and says why', () => {
    const app = createApp({ dbFile: ':memory:', mode: 'browser', log: silentLogger, env: {} })
    try {
      const chat = app.services.sessions.create('Broken')
      const warnings: string[] = []
      warmNewestChat(
        app.services.sessions,
        {
          conversation: () => {
            throw new Error('database is locked')
          }
        },
        (message, err) => warnings.push(`${message}: ${(err as Error).message}`)
      )
      expect(warnings).toEqual(['Preparing the newest chat at open failed: database is locked'])
      // The chat itself is untouched and readable.
      expect(app.services.sessions.get(chat.id).title).toBe('Broken')
    } finally {
      void app.close()
    }
  })
})
