import { describe, expect, it } from 'vitest'
import { markdownToPlainText } from './plain-text'

describe('markdownToPlainText', () => {
  it('reads a summary-style reply as the words a reader sees', () => {
    expect(
      markdownToPlainText(
        '## Context\n\nThe user is **migrating** a _Postgres_ database.\n\n- Keep `pg_dump`\n- Drop ~~old~~ tables'
      )
    ).toBe('Context The user is migrating a Postgres database. Keep pg_dump Drop old tables')
  })

  it('keeps link and image text, code without its fence, and table cells', () => {
    expect(markdownToPlainText('See [the docs](https://example.com/a_b) and ![a chart](c.png) <https://x.dev>')).toBe(
      'See the docs and a chart https://x.dev'
    )
    expect(markdownToPlainText('```ts\nconst a = 1\n```\nDone.')).toBe('const a = 1 Done.')
    expect(markdownToPlainText('| Option | Cost |\n| --- | ---: |\n| A | 3 |')).toBe('Option Cost A 3')
    expect(markdownToPlainText('> quoted\n> > twice\n\n1. first\n2) second\n- [x] done')).toBe(
      'quoted twice first second done'
    )
  })

  it('leaves ordinary text alone', () => {
    expect(markdownToPlainText('snake_case_name costs 2 * 3 = 6, and 50% of a_b')).toBe(
      'snake_case_name costs 2 * 3 = 6, and 50% of a_b'
    )
    expect(markdownToPlainText('Line one\nline   two')).toBe('Line one line two')
    expect(markdownToPlainText('   ')).toBe('')
  })
})
