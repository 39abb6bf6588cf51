import { toast } from 'sonner'
import { useAttachmentsStore } from '../../../stores/chat/attachments-store'

/** Attaches files to a chat's draft; each refused file gets a toast saying why. */
export async function attachFiles(sessionId: string, files: readonly File[]): Promise<void> {
  if (files.length === 0) return
  const refusals = await useAttachmentsStore.getState().attach(sessionId, files)
  for (const refusal of refusals) toast.error('Not attached', { description: refusal })
}

/** What the file picker offers: images, PDFs, text and code (other names are checked when chosen). */
export const ATTACH_ACCEPT =
  'image/png,image/jpeg,image/webp,image/gif,application/pdf,text/*,.md,.json,.csv,.yaml,.yml,.toml,.xml,.js,.mjs,.ts,.tsx,.jsx,.py,.rb,.go,.rs,.java,.kt,.swift,.c,.h,.cpp,.hpp,.cs,.php,.sh,.sql,.html,.css,.log'
