import { describe, expect, it } from 'vitest'
import { createEventStreamParser } from './event-stream'

function parse(chunks: string[]): string[] {
  const out: string[] = []
  const parser = createEventStreamParser((data) => out.push(data))
  for (const chunk of chunks) parser.feed(chunk)
  return out
}

describe('the event-stream reader', () => {
  it('hands over each complete event, whatever the chunking', () => {
    const stream = ': connected\n\ndata: {"event":"a"}\n\n: ping\n\ndata: {"event":"b"}\r\n\r\ndata: {"event":"c"}\n'
    const whole = parse([stream])
    expect(whole).toEqual(['{"event":"a"}', '{"event":"b"}'])
    // Split at every possible place, including inside "\r\n" and inside "data:".
    for (let i = 1; i < stream.length; i++) expect(parse([stream.slice(0, i), stream.slice(i)])).toEqual(whole)
    expect(parse(stream.split(''))).toEqual(whole)
  })

  it('joins multi-line data and ignores other fields', () => {
    expect(parse(['event: x\nid: 7\nretry: 10\ndata: one\ndata:two\ndata\n\n'])).toEqual(['one\ntwo\n'])
    expect(parse(['event: x\n\n'])).toEqual([])
  })
})
