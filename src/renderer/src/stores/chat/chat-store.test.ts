import { beforeEach, describe, expect, it } from 'vitest'
import type { RpcResult } from '../../../../shared/contract'
import type { ChatMessage } from '../../../../shared/domain/chat-message'
import { installTransport } from '../../api/client'
import { messageText } from '../../lib/message-text'
import { useChatStore } from './chat-store'

/**
 * A transport whose answers the test hands out one at a time, so an event can arrive while a load is
 * still on its way, the race a user sees when a reply streams in as a chat opens.
 */
function heldTransport() {
  const pending: { route: string; input: unknown; answer: (result: RpcResult<unknown>) => void }[] = []
  installTransport({
    mode: 'browser',
    request: (route, input) => new Promise((answer) => pending.push({ route, input, answer })),
    subscribe: () => () => {},
    onConnection: () => () => {}
  })
  return {
    /** Answers the oldest request, which must be for `route`. */
    answer(route: string, result: RpcResult<unknown>): void {
      const next = pending.shift()
      expect(next?.route).toBe(route)
      next!.answer(result)
    },
    get pending() {
      return pending.map((p) => p.route)
    }
  }
}

const SESSION = 'session-1'

function message(id: string, seq: number, text: string, status: ChatMessage['status'] = 'complete'): ChatMessage {
  return {
    id,
    sessionId: SESSION,
    seq,
    role: seq % 2 ? 'assistant' : 'user',
    parts: [{ type: 'text', text }],
    status,
    error: status === 'error' ? { code: 'provider_error', message: 'The provider refused the request.' } : null,
    tokenCount: null,
    tokenCounter: null,
    inputTokens: null,
    outputTokens: null,
    createdAt: 1_700_000_000_000 + seq
  }
}

/** A page as chat.messages answers it: the whole chat unless told there is more. */
function page(messages: ChatMessage[], more: { hasOlder?: boolean; hasNewer?: boolean } = {}) {
  return { messages, hasOlder: more.hasOlder ?? false, hasNewer: more.hasNewer ?? false }
}

/** Messages seq from…to, with ids m<seq>. */
function run(from: number, to: number): ChatMessage[] {
  return Array.from({ length: to - from + 1 }, (_, i) => message(`m${from + i}`, from + i, `Text ${from + i}`))
}

/** What the chat shows: one line per message, in order. */
function shown(sessionId = SESSION): string[] {
  return (useChatStore.getState().threads[sessionId]?.messages ?? []).map(
    (m) => `${m.id} ${m.status}: ${messageText(m.parts)}`
  )
}

let transport: ReturnType<typeof heldTransport>

beforeEach(() => {
  useChatStore.setState({ threads: {}, drafts: {}, sending: {}, sendErrors: {}, editing: {} })
  useChatStore.getState().forget(SESSION)
  transport = heldTransport()
})

async function open(messages: ChatMessage[]): Promise<void> {
  const loading = useChatStore.getState().load(SESSION)
  transport.answer('chat.messages', { ok: true, data: page(messages) })
  await loading
}

describe('chat store', () => {
  it('shows the loaded messages in order once the load returns', async () => {
    const loading = useChatStore.getState().load(SESSION)
    expect(useChatStore.getState().threads[SESSION]?.status).toBe('loading')
    transport.answer('chat.messages', { ok: true, data: page([message('b', 2, 'Second'), message('a', 1, 'First')]) })
    await loading
    expect(useChatStore.getState().threads[SESSION]?.status).toBe('ready')
    expect(shown()).toEqual(['a complete: First', 'b complete: Second'])
  })

  it('a load that returns after an event does not undo the event', async () => {
    const loading = useChatStore.getState().load(SESSION)
    // The reply finishes while the (older) list of messages is on its way.
    useChatStore.getState().receive(message('r', 1, 'The whole answer.'))
    transport.answer('chat.messages', {
      ok: true,
      data: page([message('q', 0, 'A question'), message('r', 1, 'The', 'streaming')])
    })
    await loading
    expect(shown()).toEqual(['q complete: A question', 'r complete: The whole answer.'])
  })

  it('deltas that arrive during a reload are kept when the reload returns', async () => {
    await open([message('r', 1, 'Hel', 'streaming')])
    const reloading = useChatStore.getState().load(SESSION)
    useChatStore.getState().appendDelta(SESSION, 'r', 'lo')
    transport.answer('chat.messages', { ok: true, data: page([message('r', 1, 'Hel', 'streaming')]) })
    await reloading
    expect(shown()).toEqual(['r streaming: Hello'])
  })

  it('a later load wins over what an earlier event said', async () => {
    const first = useChatStore.getState().load(SESSION)
    useChatStore.getState().receive(message('r', 1, 'Partial', 'streaming'))
    transport.answer('chat.messages', { ok: true, data: page([]) })
    await first
    await open([message('r', 1, 'Stopped here.', 'aborted')])
    expect(shown()).toEqual(['r aborted: Stopped here.'])
  })

  it('ignores deltas for a message it has not seen; the final message brings the whole text', async () => {
    await open([message('q', 0, 'A question')])
    useChatStore.getState().appendDelta(SESSION, 'unknown', 'stray words')
    useChatStore.getState().appendDelta('another-session', 'r', 'stray words')
    expect(shown()).toEqual(['q complete: A question'])
    expect(useChatStore.getState().threads['another-session']).toBeUndefined()
    useChatStore.getState().receive(message('unknown', 1, 'The whole reply.'))
    expect(shown()).toEqual(['q complete: A question', 'unknown complete: The whole reply.'])
  })

  it('appends deltas to the last text of a streaming reply', async () => {
    await open([message('r', 1, 'Once', 'streaming')])
    useChatStore.getState().appendDelta(SESSION, 'r', ' upon')
    useChatStore.getState().appendDelta(SESSION, 'r', ' a time')
    expect(shown()).toEqual(['r streaming: Once upon a time'])
  })

  it('a streaming copy that knows less than the deltas shown does not shorten the text', async () => {
    await open([message('r', 1, 'Once', 'streaming')])
    useChatStore.getState().appendDelta(SESSION, 'r', ' upon a time')
    useChatStore.getState().receive(message('r', 1, 'Once upon', 'streaming'))
    expect(shown()).toEqual(['r streaming: Once upon a time'])
    useChatStore.getState().receive(message('r', 1, 'Once upon a time, the end.'))
    expect(shown()).toEqual(['r complete: Once upon a time, the end.'])
  })

  it('ignores events for a chat that is not open: it loads in full when opened', () => {
    useChatStore.getState().receive(message('r', 1, 'Hello'))
    expect(useChatStore.getState().threads[SESSION]).toBeUndefined()
  })

  it('a send response does not undo a failure that events already reported', async () => {
    await open([])
    useChatStore.getState().setDraft(SESSION, 'A question')
    const sending = useChatStore.getState().send(SESSION)
    useChatStore.getState().receive(message('q', 0, 'A question'))
    useChatStore.getState().receive(message('r', 1, '', 'error'))
    transport.answer('chat.send', {
      ok: true,
      data: { message: message('q', 0, 'A question'), reply: message('r', 1, '', 'streaming') }
    })
    expect(await sending).toBeNull()
    expect(shown()).toEqual(['q complete: A question', 'r error: '])
    expect(useChatStore.getState().drafts[SESSION]).toBe('')
  })

  it('a failed load keeps the messages shown and says why', async () => {
    await open([message('q', 0, 'A question')])
    const reloading = useChatStore.getState().load(SESSION)
    transport.answer('chat.messages', { ok: false, error: { code: 'internal', message: 'The database is busy.' } })
    await reloading
    const thread = useChatStore.getState().threads[SESSION]
    expect(thread?.status).toBe('error')
    expect(thread?.error).toContain('The database is busy.')
    expect(shown()).toEqual(['q complete: A question'])
    expect(transport.pending).toEqual([])
  })
})

describe('chat store, in pages', () => {
  const seqsShown = () => (useChatStore.getState().threads[SESSION]?.messages ?? []).map((m) => m.seq)
  const thread = () => useChatStore.getState().threads[SESSION]!

  it('opens at the newest page and puts older pages before it as the reader scrolls up', async () => {
    const loading = useChatStore.getState().load(SESSION)
    transport.answer('chat.messages', { ok: true, data: page(run(201, 400), { hasOlder: true }) })
    await loading
    expect(thread()).toMatchObject({ hasOlder: true, hasNewer: false })
    const older = useChatStore.getState().loadOlder(SESSION)
    // Asking again while a page is on its way asks nothing more.
    void useChatStore.getState().loadOlder(SESSION)
    expect(transport.pending).toEqual(['chat.messages'])
    expect(thread().loadingOlder).toBe(true)
    transport.answer('chat.messages', { ok: true, data: page(run(1, 200), { hasNewer: true }) })
    await older
    expect(seqsShown()).toEqual(run(1, 400).map((m) => m.seq))
    expect(thread()).toMatchObject({ hasOlder: false, hasNewer: false, loadingOlder: false })
    // Nothing older: nothing is asked.
    await useChatStore.getState().loadOlder(SESSION)
    expect(transport.pending).toEqual([])
  })

  it('opening a chat asks for its newest page once: the click and the pane both ask; a loaded chat is not asked again', async () => {
    useChatStore.getState().loadUnlessLoaded(SESSION)
    useChatStore.getState().loadUnlessLoaded(SESSION)
    expect(transport.pending).toEqual(['chat.messages'])
    transport.answer('chat.messages', { ok: true, data: page(run(1, 3)) })
    await new Promise((settled) => setTimeout(settled, 0))
    useChatStore.getState().loadUnlessLoaded(SESSION)
    expect(transport.pending).toEqual([])
    expect(seqsShown()).toEqual([1, 2, 3])
  })

  it('opens around a search hit, then loads newer pages until the newest; new messages wait until then', async () => {
    const around = useChatStore.getState().loadAround(SESSION, 'm50')
    // The pane and the list asking for the same jump share one request.
    const again = useChatStore.getState().loadAround(SESSION, 'm50')
    transport.answer('chat.messages', { ok: true, data: page(run(40, 59), { hasOlder: true, hasNewer: true }) })
    expect(await around).toBe(true)
    expect(await again).toBe(true)
    expect(transport.pending).toEqual([])
    // A reply elsewhere in the chat (at its newest end) is not put after message 59.
    useChatStore.getState().receive(message('late', 900, 'A new reply'))
    expect(seqsShown()).toEqual(run(40, 59).map((m) => m.seq))
    // But a change to a message shown is.
    useChatStore.getState().receive(message('m45', 45, 'Edited text'))
    expect(thread().messages.find((m) => m.id === 'm45')!.parts).toEqual([{ type: 'text', text: 'Edited text' }])

    const newer = useChatStore.getState().loadNewer(SESSION)
    transport.answer('chat.messages', { ok: true, data: page(run(60, 79), { hasOlder: true, hasNewer: false }) })
    await newer
    expect(seqsShown()).toEqual(run(40, 79).map((m) => m.seq))
    expect(thread()).toMatchObject({ hasOlder: true, hasNewer: false })
    useChatStore.getState().receive(message('late', 80, 'A new reply'))
    expect(seqsShown().at(-1)).toBe(80)
  })

  it('a page that arrives after the chat was reopened elsewhere is dropped', async () => {
    await open(run(101, 120).map((m) => m))
    useChatStore.setState((s) => ({ threads: { ...s.threads, [SESSION]: { ...s.threads[SESSION]!, hasOlder: true } } }))
    const older = useChatStore.getState().loadOlder(SESSION)
    const jump = useChatStore.getState().loadAround(SESSION, 'm5')
    transport.answer('chat.messages', { ok: true, data: page(run(81, 100), { hasOlder: true, hasNewer: true }) })
    transport.answer('chat.messages', { ok: true, data: page(run(1, 10), { hasNewer: true }) })
    await older
    await jump
    expect(seqsShown()).toEqual(run(1, 10).map((m) => m.seq))
    expect(thread()).toMatchObject({ hasOlder: false, hasNewer: true, loadingOlder: false })
  })

  it('sending while reading an older stretch goes to the newest messages', async () => {
    const around = useChatStore.getState().loadAround(SESSION, 'm5')
    transport.answer('chat.messages', { ok: true, data: page(run(1, 10), { hasNewer: true }) })
    await around
    useChatStore.getState().setDraft(SESSION, 'Next question')
    const sending = useChatStore.getState().send(SESSION)
    transport.answer('chat.send', {
      ok: true,
      data: { message: message('q', 500, 'Next question'), reply: message('r', 501, '', 'streaming') }
    })
    await sending
    transport.answer('chat.messages', {
      ok: true,
      data: page([...run(310, 499), message('q', 500, 'Next question'), message('r', 501, '', 'streaming')], {
        hasOlder: true
      })
    })
    await new Promise((r) => setTimeout(r, 0))
    expect(seqsShown().slice(-2)).toEqual([500, 501])
    expect(seqsShown()[0]).toBe(310)
    expect(thread()).toMatchObject({ hasOlder: true, hasNewer: false })
  })

  it('a new version replaces the conversation from the message on and keeps the older pages before it', async () => {
    await open(run(1, 30))
    const regenerating = useChatStore.getState().regenerate(SESSION, 'm21')
    transport.answer('chat.regenerate', { ok: true, data: { reply: message('v2', 31, '', 'streaming') } })
    await new Promise((r) => setTimeout(r, 0))
    expect(transport.pending).toEqual(['chat.messages'])
    transport.answer('chat.messages', {
      ok: true,
      data: page([message('v2', 31, '', 'streaming')], { hasOlder: true })
    })
    expect(await regenerating).toBeNull()
    expect(seqsShown()).toEqual([...run(1, 20).map((m) => m.seq), 31])
    expect(thread()).toMatchObject({ hasOlder: false, hasNewer: false })
  })

  it('a draft put back with ↑ is sent as a new version of that message, not a new turn', async () => {
    await open(run(1, 4))
    useChatStore.getState().setDraft(SESSION, 'Text 4')
    useChatStore.getState().setEditing(SESSION, 'm4')
    useChatStore.getState().setDraft(SESSION, 'Text 4, edited')
    const sending = useChatStore.getState().send(SESSION)
    await new Promise((r) => setTimeout(r, 0))
    expect(transport.pending).toEqual(['chat.edit'])
    transport.answer('chat.edit', {
      ok: true,
      data: { message: message('m4b', 6, 'Text 4, edited'), reply: message('r', 7, '', 'streaming') }
    })
    await new Promise((r) => setTimeout(r, 0))
    transport.answer('chat.messages', {
      ok: true,
      data: page([message('m4b', 6, 'Text 4, edited'), message('r', 7, '', 'streaming')])
    })
    expect(await sending).toBeNull()
    expect(shown().slice(-2)).toEqual(['m4b complete: Text 4, edited', 'r streaming: '])
    expect(useChatStore.getState()).toMatchObject({ drafts: { [SESSION]: '' }, editing: {} })
  })

  it('emptying the box writes a new message again', () => {
    useChatStore.getState().setDraft(SESSION, 'Text 4')
    useChatStore.getState().setEditing(SESSION, 'm4')
    useChatStore.getState().setDraft(SESSION, '')
    expect(useChatStore.getState().editing).toEqual({})
  })
})
