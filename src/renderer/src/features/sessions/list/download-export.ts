import { api } from '../../../api/client'

/**
 * Saves a chat as a file: the main process writes the text, the page hands it to the browser's
 * download (Electron's too) through a Blob link, so no file dialog code is needed on either side.
 */
export async function downloadExport(sessionId: string, format: 'md' | 'json'): Promise<string> {
  const file = await api.request('sessions.export', { id: sessionId, format })
  const url = URL.createObjectURL(new Blob([file.text], { type: `${file.mimeType};charset=utf-8` }))
  const link = document.createElement('a')
  link.href = url
  link.download = file.filename
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked on the next turn: the download has started by then.
  setTimeout(() => URL.revokeObjectURL(url), 0)
  return file.filename
}
