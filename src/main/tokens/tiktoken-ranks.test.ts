import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTiktokenRanks } from './tiktoken-ranks'

const load = createRequire(import.meta.url)
const data = join(dirname(load.resolve('gpt-tokenizer/GptEncoding')), '..', 'data')

describe('readTiktokenRanks', () => {
  // The encoder is built from this table: one token out of place and every count after it may differ.
  it.each(['o200k_base', 'cl100k_base'])('reads %s exactly as the package ships it as a module', (name) => {
    const shipped = (load(`gpt-tokenizer/bpeRanks/${name}`) as { default: Array<string | number[]> }).default
    const read = readTiktokenRanks(join(data, `${name}.tiktoken`))
    expect(read.length).toBe(shipped.length)
    expect(read).toEqual(shipped)
  })

  it('keeps tokens that are not UTF-8, or start with a byte-order mark, as bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'distill-ranks-'))
    try {
      const file = join(dir, 'tiny.tiktoken')
      const line = (bytes: number[], rank: number) => `${Buffer.from(bytes).toString('base64')} ${rank}`
      writeFileSync(
        file,
        [line([104, 105], 0), line([0xc3, 0xa9], 1), line([0xff], 2), line([0xef, 0xbb, 0xbf, 97], 3)].join('\n') + '\n'
      )
      expect(readTiktokenRanks(file)).toEqual(['hi', 'é', [0xff], [0xef, 0xbb, 0xbf, 97]])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a file that is not a rank table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'distill-ranks-'))
    try {
      const file = join(dir, 'bad.tiktoken')
      writeFileSync(file, '{"not": "ranks"} 0\n')
      expect(() => readTiktokenRanks(file)).toThrow(/not a tiktoken rank file/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
