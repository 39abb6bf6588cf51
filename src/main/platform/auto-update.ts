import type { AppUpdater } from 'electron-updater'
import type { Logger } from '../services/service-deps'

/*
 * Update checks for the packaged app (electron-updater against the generic feed in
 * electron-builder.yml, whose URL electron-builder writes into the package's app-update.yml).
 * Kept thin and free of electron itself, so a test can run it in plain Node against a local feed.
 */

/** Set to any non-empty value to turn the checks off. */
export const NO_UPDATE_CHECK_ENV = 'DISTILL_NO_UPDATE_CHECK'
const SIX_HOURS = 6 * 60 * 60 * 1000

/** Why no check runs, or null when it should. */
export function updateCheckOff(opts: { isPackaged: boolean; env: NodeJS.ProcessEnv }): string | null {
  if (!opts.isPackaged) return 'not a packaged build'
  if (opts.env[NO_UPDATE_CHECK_ENV]) return `${NO_UPDATE_CHECK_ENV} is set`
  return null
}

export interface UpdateChecks {
  /** One check now; resolves to the newer version the feed offers, or null. Never rejects. */
  check(): Promise<string | null>
  stop(): void
}

/**
 * Checks at once and then every few hours. An update found is downloaded in the background and
 * installed when the app quits (electron-updater's defaults); failures are logged, never shown.
 * The caller decides whether to start them at all (updateCheckOff).
 */
export function startUpdateChecks(opts: {
  updater: AppUpdater
  log: Logger
  intervalMs?: number
  /** false in tests: a check without the desktop notification. */
  notify?: boolean
}): UpdateChecks {
  const { updater, log, notify = true } = opts
  // electron-updater logs its steps and errors (an 'error' event) through this.
  updater.logger = log
  updater.on('update-available', (info: { version: string }) => log.info(`Update available: ${info.version}`))
  updater.on('update-downloaded', (info: { version: string }) =>
    log.info(`Update ${info.version} downloaded; it is installed when Distill quits`)
  )
  const check = async (): Promise<string | null> => {
    try {
      const result = notify ? await updater.checkForUpdatesAndNotify() : await updater.checkForUpdates()
      return result?.isUpdateAvailable ? result.updateInfo.version : null
    } catch {
      return null // already logged by the updater's 'error' event
    }
  }
  void check()
  const timer = setInterval(() => void check(), opts.intervalMs ?? SIX_HOURS)
  timer.unref()
  return { check, stop: () => clearInterval(timer) }
}
