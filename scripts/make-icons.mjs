#!/usr/bin/env node
// `node scripts/make-icons.mjs`: (re)writes resources/ — icon.png (1024 px), icons/NxN.png (Linux),
// icon.ico (Windows) and icon.icns (macOS) — from the drawing in scripts/lib/icons.mjs.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { iconFiles } from './lib/icons.mjs'

const resources = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'resources')
for (const [name, bytes] of iconFiles()) {
  const file = join(resources, name)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, bytes)
  console.log(`resources/${name} (${bytes.length} bytes)`)
}
