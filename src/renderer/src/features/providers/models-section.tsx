import type { Settings } from '../../../../shared/domain/settings'
import { CustomModelsEditor } from './custom-models-editor'
import { DefaultModelField } from './default-model-field'
import { ModelThresholdsEditor } from './model-thresholds-editor'

/** Settings → Models: what new chats start with, and models Distill does not know by itself. */
export function ModelsSection({ settings }: { settings: Settings }) {
  return (
    <section className="settings-section" aria-labelledby="section-models">
      <h2 id="section-models" className="settings-section-title" tabIndex={-1}>
        Models
      </h2>
      <div className="settings-card">
        <DefaultModelField settings={settings} />
        <CustomModelsEditor settings={settings} />
        <ModelThresholdsEditor settings={settings} />
      </div>
    </section>
  )
}
