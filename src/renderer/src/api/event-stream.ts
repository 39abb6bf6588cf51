/**
 * Reads `text/event-stream` (server-sent events) fed in arbitrary chunks and hands over the data of
 * each complete event. Comments (": ping") and the event, id and retry fields are ignored: the
 * server sends only `data:` lines.
 */
export function createEventStreamParser(onData: (data: string) => void): { feed(chunk: string): void } {
  let pending = ''
  let data: string[] = []
  return {
    feed(chunk) {
      pending += chunk
      let newline = pending.indexOf('\n')
      while (newline !== -1) {
        const line = pending.slice(0, newline).replace(/\r$/, '')
        pending = pending.slice(newline + 1)
        newline = pending.indexOf('\n')
        if (line === '') {
          if (data.length > 0) onData(data.join('\n'))
          data = []
        } else if (line === 'data' || line.startsWith('data:')) {
          const value = line.slice(5)
          data.push(value.startsWith(' ') ? value.slice(1) : value)
        }
      }
    }
  }
}
