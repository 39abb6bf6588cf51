// The decision of scripts/ensure-native.mjs, with its side effects passed in so it can be tested.
import {
  electronVersion,
  markerMatches,
  probeInNode,
  readMarker,
  restore,
  stash,
  forget,
  writeMarker
} from './native-abi.mjs'

export class NativeBuildError extends Error {}

/**
 * Makes node_modules/better-sqlite3 usable by `runtime` ('node' | 'electron').
 * @param {object} o
 * @param {'node' | 'electron'} o.runtime
 * @param {ReturnType<import('./native-abi.mjs').nativePaths>} o.paths
 * @param {string} o.targetAbi  process.versions.modules for node, the Electron ABI for electron
 * @param {(runtime: string, abi: string) => { ok: boolean, output: string }} o.rebuild
 * @param {(line: string) => void} o.notice
 * @param {typeof probeInNode} [o.probe]
 * @returns {{ action: 'none' | 'marked' | 'restored' | 'rebuilt' }}
 */
export function ensureNative({ runtime, paths, targetAbi, rebuild, notice, probe = probeInNode }) {
  const abi = String(targetAbi)
  const extra = runtime === 'electron' ? { electron: electronVersion(paths) } : {}
  if (markerMatches(readMarker(paths), runtime, abi)) return { action: 'none' }

  // In Node, the binary either loads (a Node build of this ABI) or the error names its ABI.
  const isReady = () => {
    const result = probe(paths)
    if (runtime === 'node') return { ready: result.ok, result }
    return { ready: !result.ok && result.builtAbi === abi, result }
  }

  const first = isReady()
  if (first.ready) {
    writeMarker(paths, runtime, abi, extra)
    stash(paths, runtime, abi)
    return { action: 'marked' }
  }
  if (!first.result.ok && !first.result.abiProblem) {
    throw new NativeBuildError(`better-sqlite3 does not load, and not because of its build:\n${first.result.message}`)
  }
  // Keep what is there for the way back (and to put back if the rebuild fails: node-gyp deletes
  // the build folder before it compiles).
  let previous = null
  if (first.result.ok) previous = { runtime: 'node', abi: String(process.versions.modules) }
  else if (first.result.builtAbi)
    previous = { runtime: guessRuntime(first.result.builtAbi), abi: first.result.builtAbi }
  if (previous) stash(paths, previous.runtime, previous.abi)
  const putBack = () => {
    try {
      if (previous && restore(paths, previous.runtime, previous.abi)) writeMarker(paths, previous.runtime, previous.abi)
    } catch {
      // best effort: the next ensure-native run will sort it out
    }
  }

  if (restore(paths, runtime, abi)) {
    if (isReady().ready) {
      writeMarker(paths, runtime, abi, extra)
      return { action: 'restored' }
    }
    forget(paths, runtime, abi)
  }

  notice(
    runtime === 'node'
      ? `Distill: rebuilding better-sqlite3 for Node.js ${process.version} (ABI ${abi}); this takes about a minute...`
      : `Distill: rebuilding better-sqlite3 for Electron ${extra.electron ?? ''} (ABI ${abi}); this takes about a minute...`
  )
  const built = rebuild(runtime, abi)
  if (!built.ok) {
    putBack()
    throw new NativeBuildError(`Rebuilding better-sqlite3 for ${runtime} failed:\n${built.output}`)
  }
  const after = isReady()
  if (!after.ready) {
    putBack()
    throw new NativeBuildError(
      `better-sqlite3 was rebuilt for ${runtime} but is still not usable:\n${after.result.ok ? 'it loads in Node' : after.result.message}`
    )
  }
  writeMarker(paths, runtime, abi, extra)
  stash(paths, runtime, abi)
  return { action: 'rebuilt' }
}

/** Node's ABIs stay below Electron's (Node 25 is 141, Electron 41 is 145). */
function guessRuntime(abi) {
  return Number(abi) === Number(process.versions.modules) ? 'node' : 'electron'
}
