import { describe, expect, it, vi } from 'vitest'
import { warmHttpClient } from './warm-http-client'

const open = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length

describe('warmHttpClient', () => {
  it('makes one round trip on the loopback address and leaves no server or connection behind', async () => {
    const servers = open('TCPServerWrap')
    const sockets = open('TCPSocketWrap')
    await warmHttpClient()
    await warmHttpClient()
    // libuv closes handles a moment after their close callbacks.
    await vi.waitFor(() => {
      expect(open('TCPServerWrap')).toBe(servers)
      expect(open('TCPSocketWrap')).toBe(sockets)
    })
  })

  it('gives up on a round trip that does not come back in time', async () => {
    await expect(warmHttpClient(0)).rejects.toThrow()
  })
})
