import type { ContextUsage } from '../../../../shared/contract'

/**
 * Where the compression threshold in force comes from, in one sentence: set for this model or the
 * global setting, and lowered while the counts are only estimates (so two chats can differ).
 */
export function thresholdNote(usage: Pick<ContextUsage, 'modelLabel' | 'thresholdSetting' | 'budget'>): string {
  const { percent, source } = usage.thresholdSetting
  const where =
    source === 'model'
      ? `${percent}% is set for ${usage.modelLabel} in Settings → Models`
      : `${percent}% is the global setting (Settings → Compression); a model can have its own under Models`
  const inForce = usage.budget.thresholdPercent
  return inForce < percent
    ? `Threshold: ${where}. It is lowered to ${inForce}% here because this model’s tokens are estimated, not counted exactly.`
    : `Threshold: ${where}.`
}
