import { shell } from 'electron'
import type { Logger } from '../services/service-deps'
import { isExternalWebUrl } from './url-policy'

/**
 * Opens an http(s) link in the user's browser; anything else (file:, javascript:, custom schemes
 * that could launch local programs) is refused. Returns whether the link was handed over.
 */
export function openExternalLink(url: string, log: Logger): boolean {
  if (!isExternalWebUrl(url)) {
    log.warn('Refused to open a link that is not http(s)', { url: url.slice(0, 200) })
    return false
  }
  shell.openExternal(url).catch((err: unknown) => log.warn('Could not open the link in the browser', err))
  return true
}
