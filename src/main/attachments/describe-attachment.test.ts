import { describe, expect, it } from 'vitest'
import { describeImage, describePdf, describeText, DESCRIPTION_MAX } from './describe-attachment'

describe('one line of what a file was', () => {
  it('takes a Markdown file’s first heading', () => {
    expect(describeText('---\ntitle: x\n---\n\n# Release checklist\n\nSteps…', 'notes.md')).toBe('Release checklist')
  })

  it('takes a code file’s first comment of substance, past shebangs and "use strict"', () => {
    expect(
      describeText("#!/usr/bin/env node\n'use strict'\n// Parses the nightly billing export\nconst x = 1", 'bill.js')
    ).toBe('Parses the nightly billing export')
    expect(describeText('/**\n * Loads the user settings from disk.\n */\nexport function load() {}', 'load.ts')).toBe(
      'Loads the user settings from disk.'
    )
    expect(describeText('# Deploy script for staging\nset -e\n', 'deploy.sh')).toBe('Deploy script for staging')
  })

  it('falls back to the first line with words, and says nothing for a file without any', () => {
    expect(describeText('\n\nTODO: ship attachments\nowner: tangerine\n', 'notes.txt')).toBe('TODO: ship attachments')
    expect(describeText('{\n}\n', 'empty.json')).toBeNull()
  })

  it('describes a table by its rows and columns', () => {
    expect(describeText('date,amount,payee\n2026-01-02,12.50,Cafe\n2026-01-03,8,Bus\n', 'spend.csv')).toBe(
      'CSV with 2 rows; columns: date, amount, payee'
    )
  })

  it('keeps a line short', () => {
    const line = describeText(`${'word '.repeat(100)}`, 'long.txt')!
    expect(line.length).toBeLessThanOrEqual(DESCRIPTION_MAX)
    expect(line.endsWith('…')).toBe(true)
  })

  it('takes a PDF’s first line of text', () => {
    expect(describePdf(['', 'Quarterly revenue rose 12%\nCosts fell'])).toBe('Quarterly revenue rose 12%')
    expect(describePdf(['  ', ''])).toBeNull()
  })

  it('gives an image its size and the words sent with it', () => {
    expect(describeImage({ width: 320, height: 200 }, 'What does this chart show?')).toBe(
      '320×200 image, sent with “What does this chart show?”'
    )
    expect(describeImage({}, '')).toBe('Image')
  })
})
