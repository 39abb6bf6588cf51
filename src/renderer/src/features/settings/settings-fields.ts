import type { SettingKey, Settings } from '../../../../shared/domain/settings'

/** The settings this form edits. Providers and models have their own sections (features/providers). */
export type FormKey = Extract<
  SettingKey,
  | 'theme'
  | 'autoCompress'
  | 'thresholdPercent'
  | 'retentionTokens'
  | 'safetyMarginPercent'
  | 'minimumTokens'
  | 'strategy'
  | 'summarizer'
  | 'prepareAtPercent'
  | 'prepareWhenIdle'
  | 'reviewSummaries'
  | 'summarizationModel'
  | 'notifications'
  | 'firstChunkTimeoutSeconds'
  | 'recallEnabled'
  | 'recallBudgetPercent'
  | 'pinShareLimit'
>

type KeysOf<V> = { [K in FormKey]: Settings[K] extends V ? K : never }[FormKey]
export type NumberKey = KeysOf<number>
export type BooleanKey = KeysOf<boolean>

interface Base<K extends FormKey> {
  key: K
  label: string
  /** What the setting does, shown under the field together with its default. */
  help?: string
  /**
   * The default, for the hint. Mirrors DEFAULT_SETTINGS in shared/domain/settings.ts (kept out of
   * the bundle because the domain module pulls zod); settings-fields.test.ts checks they agree.
   */
  defaultValue: Settings[K]
}

export type FieldSpec =
  | (Base<'theme'> & { kind: 'select'; options: ReadonlyArray<{ value: Settings['theme']; label: string }> })
  | (Base<'strategy'> & { kind: 'select'; options: ReadonlyArray<{ value: Settings['strategy']; label: string }> })
  | (Base<'summarizer'> & { kind: 'select'; options: ReadonlyArray<{ value: Settings['summarizer']; label: string }> })
  | (Base<NumberKey> & {
      kind: 'number'
      unit: string
      min: number
      max: number
      step: number | 'any'
      integer: boolean
    })
  | (Base<BooleanKey> & { kind: 'toggle' })
  | (Base<'summarizationModel'> & { kind: 'text'; placeholder: string; emptyLabel: string })

export interface SectionSpec {
  id: string
  title: string
  description?: string
  fields: FieldSpec[]
}

export const SETTINGS_SECTIONS: SectionSpec[] = [
  {
    id: 'appearance',
    title: 'Appearance',
    fields: [
      {
        key: 'theme',
        kind: 'select',
        label: 'Theme',
        help: 'System follows your operating system’s light or dark mode.',
        defaultValue: 'system',
        options: [
          { value: 'system', label: 'System' },
          { value: 'light', label: 'Light' },
          { value: 'dark', label: 'Dark' }
        ]
      }
    ]
  },
  {
    id: 'compression',
    title: 'Compression',
    description:
      'As a chat approaches its model’s context window, older messages are summarized into a snapshot. The originals are never deleted.',
    fields: [
      {
        key: 'autoCompress',
        kind: 'toggle',
        label: 'Compress automatically',
        help: 'Summarize older messages when a chat reaches the threshold.',
        defaultValue: true
      },
      {
        key: 'thresholdPercent',
        kind: 'number',
        label: 'Threshold',
        help: 'Share of the usable context window that triggers compression (50–99).',
        unit: '%',
        min: 50,
        max: 99,
        step: 1,
        integer: true,
        defaultValue: 95
      },
      {
        key: 'retentionTokens',
        kind: 'number',
        label: 'Recent tokens kept verbatim',
        help: 'The newest messages, up to this many tokens, are never summarized.',
        unit: 'tokens',
        min: 0,
        max: 200_000,
        step: 100,
        integer: true,
        defaultValue: 1000
      },
      {
        key: 'safetyMarginPercent',
        kind: 'number',
        label: 'Safety margin',
        help: 'Headroom kept free for token-count estimation error (0–30).',
        unit: '%',
        min: 0,
        max: 30,
        step: 'any',
        integer: false,
        defaultValue: 5
      },
      {
        key: 'pinShareLimit',
        kind: 'number',
        label: 'Pinned messages at most',
        help: 'Share of a chat’s usable context that pinned messages may take together; pinning more is refused.',
        unit: '%',
        min: 1,
        max: 60,
        step: 5,
        integer: true,
        defaultValue: 25
      },
      {
        key: 'minimumTokens',
        kind: 'number',
        label: 'Minimum tokens',
        help: 'Chats smaller than this are never compressed.',
        unit: 'tokens',
        min: 0,
        max: 1_000_000,
        step: 100,
        integer: true,
        defaultValue: 2000
      },
      {
        key: 'strategy',
        kind: 'select',
        label: 'Strategy',
        help: 'How older messages are grouped into summaries.',
        defaultValue: 'rolling',
        options: [
          { value: 'rolling', label: 'Rolling' },
          { value: 'tiered', label: 'Tiered' },
          { value: 'importance', label: 'Importance' }
        ]
      },
      {
        key: 'summarizer',
        kind: 'select',
        label: 'Summarizer',
        help: 'Who writes the summaries.',
        defaultValue: 'llm',
        options: [
          { value: 'llm', label: 'LLM' },
          { value: 'extractive', label: 'Extractive (no model call)' }
        ]
      },
      {
        key: 'summarizationModel',
        kind: 'text',
        label: 'Summarization model',
        help: 'Leave empty to summarize with the chat’s own model.',
        placeholder: 'Same as the chat',
        emptyLabel: 'the chat’s own model',
        defaultValue: null
      },
      {
        key: 'prepareAtPercent',
        kind: 'number',
        label: 'Prepare the next summary at',
        help: 'Percent of the threshold at which the model starts writing the next summary in the background, so reaching the threshold never makes you wait. 0 prepares nothing ahead.',
        unit: '%',
        min: 0,
        max: 95,
        step: 5,
        integer: true,
        defaultValue: 80
      },
      {
        key: 'prepareWhenIdle',
        kind: 'toggle',
        label: 'Prepare with paid models right after a reply',
        help: 'Off: with a paid summarization model, the next summary is prepared only once you start typing, so a chat you leave costs nothing.',
        defaultValue: false
      },
      {
        key: 'reviewSummaries',
        kind: 'toggle',
        label: 'Ask me before a summary replaces messages',
        help: 'The prepared summary waits in the Summary panel as a draft to edit, regenerate or accept. Off: it goes in automatically, with Undo. Chats can choose their own.',
        defaultValue: false
      }
    ]
  },
  {
    id: 'replies',
    title: 'Replies',
    fields: [
      {
        key: 'firstChunkTimeoutSeconds',
        kind: 'number',
        label: 'Wait for the first words',
        help: 'A reply that has sent nothing after this long is given up. Local models can read a long chat for minutes before they answer.',
        unit: 'seconds',
        min: 10,
        max: 3600,
        step: 10,
        integer: true,
        defaultValue: 300
      }
    ]
  },
  {
    id: 'recall',
    title: 'Recall',
    description:
      'When you send a message, the summarized originals that match it are brought back into the request verbatim, dated, after the summary.',
    fields: [
      {
        key: 'recallEnabled',
        kind: 'toggle',
        label: 'Recall summarized messages',
        help: 'Search the original messages behind the summary for what each new message is about.',
        defaultValue: true
      },
      {
        key: 'recallBudgetPercent',
        kind: 'number',
        label: 'Recall budget',
        help: 'Share of the usable context window recalled messages may take (1–50), when the request has that much free.',
        unit: '%',
        min: 1,
        max: 50,
        step: 1,
        integer: true,
        defaultValue: 15
      }
    ]
  },
  {
    id: 'notifications',
    title: 'Notifications',
    fields: [
      {
        key: 'notifications',
        kind: 'toggle',
        label: 'Show notifications',
        help: 'Tell me when a chat was compressed, automatically or by hand.',
        defaultValue: true
      }
    ]
  }
]

export const ALL_FIELDS: FieldSpec[] = SETTINGS_SECTIONS.flatMap((section) => section.fields)

/** "Default: 95%", "Default: on", "Default: System". */
export function defaultHint(field: FieldSpec): string {
  switch (field.kind) {
    case 'toggle':
      return `Default: ${field.defaultValue ? 'on' : 'off'}`
    case 'number': {
      const value = field.defaultValue.toLocaleString('en-US')
      return `Default: ${value}${field.unit === '%' ? '%' : ` ${field.unit}`}`
    }
    case 'select': {
      const options: ReadonlyArray<{ value: string; label: string }> = field.options
      return `Default: ${options.find((o) => o.value === field.defaultValue)?.label ?? String(field.defaultValue)}`
    }
    case 'text':
      return `Default: ${field.defaultValue ?? field.emptyLabel}`
  }
}
