import { describe, expect, it } from 'vitest'
import { installTransport } from '../../api/client'
import { useAttachmentsStore } from './attachments-store'

/** A transport that answers whether the chat's model takes images, and records the routes asked. */
function transport(imageRefusal: string | null) {
  const asked: string[] = []
  installTransport({
    mode: 'browser',
    request: async (route) => {
      asked.push(route)
      if (route === 'attachments.accepts') return { ok: true, data: { vision: imageRefusal === null, imageRefusal } }
      return { ok: false, error: { code: 'invalid_input', message: `unexpected ${route}` } }
    },
    subscribe: () => () => {},
    onConnection: () => () => {}
  })
  return asked
}

describe('attaching files in the composer', () => {
  it('refuses an image for a model that cannot see, and files of other types, before uploading anything', async () => {
    const asked = transport(
      'GPT-3.5 Turbo cannot see images. Choose a model that can, such as GPT-5, or remove the image.'
    )
    const refusals = await useAttachmentsStore
      .getState()
      .attach('s1', [
        new File([new Uint8Array([0x89, 0x50])], 'chart.png', { type: 'image/png' }),
        new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }),
        new File(['PK'], 'backup.zip', { type: 'application/zip' })
      ])
    expect(refusals).toEqual([
      '“chart.png” is an image. GPT-3.5 Turbo cannot see images. Choose a model that can, such as GPT-5, or remove the image.',
      '“setup.exe” can’t be attached. Distill takes images (PNG, JPEG, WebP, GIF), PDFs, and text or code files.',
      '“backup.zip” can’t be attached. Distill takes images (PNG, JPEG, WebP, GIF), PDFs, and text or code files.'
    ])
    // Asked once for the batch; nothing uploaded, nothing on the draft.
    expect(asked).toEqual(['attachments.accepts'])
    expect(useAttachmentsStore.getState().pending.s1 ?? []).toEqual([])
  })

  it('does not ask about images when none is attached', async () => {
    const asked = transport(null)
    expect(
      await useAttachmentsStore.getState().attach('s2', [new File(['x'], 'song.mp3', { type: 'audio/mpeg' })])
    ).toHaveLength(1)
    expect(asked).toEqual([])
  })
})
