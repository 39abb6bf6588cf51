import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../../../test/support/temp-dir'
import { findMigrationsFolder, openDatabase } from '../client'
import { readCalibration, writeCalibration } from './calibration-repo'
import { readSettingRows } from './settings-repo'

describe('token calibration storage', () => {
  const tempDir = useTempDir()

  /** The migrations as an earlier version shipped them: up to the context heads backfill. */
  function migrationsBeforeCalibrationTable(): string {
    const folder = join(tempDir(), 'drizzle-old')
    cpSync(findMigrationsFolder(), folder, { recursive: true })
    const journalFile = join(folder, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> }
    const end = journal.entries.findIndex((e) => e.tag === '0004_token_calibration')
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, end) }))
    return folder
  }

  it('carries calibration stored in settings over to its own table, keeping only valid entries', () => {
    const file = join(tempDir(), 'distill.db')
    const old = openDatabase(file, { migrationsFolder: migrationsBeforeCalibrationTable() })
    const stored = {
      'anthropic:claude-sonnet-4-5': { factor: 1.18, samples: 7, spread: 0 },
      'google:gemini-2.5-pro': { factor: 0.92, samples: 2, spread: 0 },
      'broken:model': { factor: 40, samples: 1 }
    }
    old.sqlite
      .prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)')
      .run('internal.tokenCalibration', JSON.stringify(stored), 1)
    old.sqlite
      .prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)')
      .run('thresholdPercent', '90', 1)
    old.close()

    const upgraded = openDatabase(file)
    expect(readCalibration(upgraded.db)).toEqual({
      'anthropic:claude-sonnet-4-5': { factor: 1.18, samples: 7, spread: 0 },
      'google:gemini-2.5-pro': { factor: 0.92, samples: 2, spread: 0 }
    })
    // Settings hold user settings only.
    expect(readSettingRows(upgraded.db).map((r) => r.key)).toEqual(['thresholdPercent'])
    upgraded.close()
  })

  it('updates one model without touching the others', () => {
    const { db, close } = openDatabase(join(tempDir(), 'distill.db'))
    writeCalibration(db, 'a:1', { factor: 1.1, samples: 1 }, 1)
    writeCalibration(db, 'b:2', { factor: 0.9, samples: 1 }, 1)
    writeCalibration(db, 'a:1', { factor: 1.2, samples: 2, spread: 0.05 }, 2)
    expect(readCalibration(db)).toEqual({
      'a:1': { factor: 1.2, samples: 2, spread: 0.05 },
      'b:2': { factor: 0.9, samples: 1, spread: 0 }
    })
    close()
  })
})
