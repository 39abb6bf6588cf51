import type { ContextUsage } from '../../../../shared/contract'
import { useUiStore } from '../../stores/ui-store'
import { thresholdNote } from './threshold-note'
import './threshold-source.css'

/** "Compresses at 75% — set for this chat. Change in chat settings": the threshold's origin, with a way there. */
export function ThresholdSource({
  usage
}: {
  usage: Pick<ContextUsage, 'modelLabel' | 'thresholdSetting' | 'budget'>
}) {
  const note = thresholdNote(usage)
  const go = () => {
    const ui = useUiStore.getState()
    if (note.place === 'chat-settings') ui.setChatDialog('chat-settings')
    else ui.openSettings(note.place)
  }
  return (
    <p className="threshold-source" data-source={usage.thresholdSetting.source}>
      {note.text} {note.lowered && <>{note.lowered} </>}
      <button type="button" className="threshold-source-link" onClick={go}>
        {note.linkLabel}
      </button>
    </p>
  )
}
