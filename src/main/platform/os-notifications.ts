import { BrowserWindow, Notification } from 'electron'
import type { EventHub } from '../transport/event-hub'

const compact = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n))

/**
 * FR-1.6 in Electron: when an automatic compression finishes while no Distill window has focus, an
 * OS notification says so (the in-window toast covers the focused case). Honours the setting.
 */
export function notifyAutoCompressions(events: EventHub, enabled: () => boolean): () => void {
  return events.subscribe(({ event, payload }) => {
    if (event !== 'compression.done' || !enabled() || !Notification.isSupported()) return
    const { report } = payload as { report: { type: string; messagesSummarized: number; tokensAfter: number } }
    if (report.type !== 'auto' || BrowserWindow.getFocusedWindow()) return
    const notification = new Notification({
      title: 'Conversation summarized',
      body: `${report.messagesSummarized} messages summarized · context now ${compact(report.tokensAfter)} tokens`,
      silent: true
    })
    notification.on('click', () => {
      const win = BrowserWindow.getAllWindows()[0]
      if (win) {
        if (win.isMinimized()) win.restore()
        win.focus()
      }
    })
    notification.show()
  })
}
