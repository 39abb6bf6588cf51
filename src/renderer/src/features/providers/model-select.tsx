import { Command } from 'cmdk'
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import type { ProviderId } from '../../../../shared/domain/provider'
import { CheckIcon, ChevronDownIcon } from '../../components/icons'
import { PROVIDER_LABELS } from '../../lib/providers'
import { useProvidersStore } from '../../stores/providers-store'
import { findOption, groupModels } from './model-options'
import './model-select.css'

interface ModelSelectProps {
  value: { provider: ProviderId; modelId: string } | null
  onChange(provider: ProviderId, modelId: string): void
  id?: string
  /** The accessible name when no <label> points at the button. */
  ariaLabel?: string
  className?: string
  disabled?: boolean
  title?: string
  describedBy?: string
  invalid?: boolean
  /** A choice of no model, first in the list and shown while `value` is null ("Last model chosen in a chat"). */
  none?: { label: string; onSelect(): void }
  /** The window the button shows instead of the model's ("32.8k"): a chat's own, set in Chat settings. */
  windowText?: string
}

const POPOVER_WIDTH = 380
/** "needs key" from "Anthropic — needs key". */
const missing = (groupLabel: string) => groupLabel.split(' — ')[1] ?? ''
const MARGIN = 8
/** The list value of the `none` choice; no model is named so. */
const NONE_VALUE = '__none'

/**
 * The model picker: a button showing the model, opening a searchable list (type to filter, arrows,
 * Enter) grouped by provider. Providers that can chat come first; models of providers still missing
 * a key or address wait behind "Show all models". Each model says its window and whether it takes images.
 */
export function ModelSelect({
  value,
  onChange,
  id,
  ariaLabel,
  className,
  disabled,
  title,
  describedBy,
  invalid,
  none,
  windowText
}: ModelSelectProps) {
  const models = useProvidersStore((s) => s.models)
  const providers = useProvidersStore((s) => s.providers)
  const [open, setOpen] = useState(false)
  const [showAll, setShowAll] = useState(false)
  const [search, setSearch] = useState('')
  /** The highlighted option: the current model when the list opens. */
  const [active, setActive] = useState('')
  const [place, setPlace] = useState<{ top: number; left: number; width: number; maxHeight: number } | null>(null)
  const trigger = useRef<HTMLButtonElement>(null)
  const popover = useRef<HTMLDivElement>(null)
  const listId = useId()

  const groups = groupModels(models, providers, value)
  const current = findOption(groups, value)
  // The current model's provider is always shown, even when it needs a key.
  const hidden = groups.filter((g) => !g.ready && g.provider !== value?.provider)
  const shown = showAll || search.trim() !== '' ? groups : groups.filter((g) => !hidden.includes(g))
  const hiddenCount = hidden.reduce((n, g) => n + g.options.length, 0)

  function close(refocus = true) {
    setOpen(false)
    setSearch('')
    if (refocus) trigger.current?.focus()
  }

  // Under the button, inside the window whatever the button's place (the chat header, a settings row).
  useLayoutEffect(() => {
    if (!open || !trigger.current) return
    const place = () => {
      const r = trigger.current!.getBoundingClientRect()
      const width = Math.min(POPOVER_WIDTH, window.innerWidth - 2 * MARGIN)
      const left = Math.max(MARGIN, Math.min(r.left, window.innerWidth - width - MARGIN))
      const below = window.innerHeight - r.bottom - MARGIN - 4
      setPlace({ top: r.bottom + 4, left, width, maxHeight: Math.max(200, Math.min(480, below)) })
    }
    place()
    window.addEventListener('resize', place)
    return () => window.removeEventListener('resize', place)
  }, [open])

  // A click anywhere else closes it, without taking the focus back.
  useEffect(() => {
    if (!open) return
    const onDown = (event: PointerEvent) => {
      const target = event.target as Node
      if (!popover.current?.contains(target) && !trigger.current?.contains(target)) close(false)
    }
    document.addEventListener('pointerdown', onDown, true)
    return () => document.removeEventListener('pointerdown', onDown, true)
  }, [open])

  function pick(provider: ProviderId, modelId: string) {
    close()
    if (provider !== value?.provider || modelId !== value?.modelId) onChange(provider, modelId)
  }

  function onTriggerKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      openList()
    }
  }

  function openList() {
    setActive(current?.value ?? (none && !value ? NONE_VALUE : ''))
    setOpen(true)
  }

  function onPopoverKey(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      // Closes the list only, never the dialog or page around it.
      event.preventDefault()
      event.stopPropagation()
      close()
    } else if (event.key === 'Tab') {
      close(false)
    }
  }

  const label = current && windowText ? `${current.name} · ${windowText}` : current?.label
  const text = label ?? (value ? value.modelId : (none?.label ?? 'Loading models…'))
  return (
    <>
      <button
        ref={trigger}
        id={id}
        type="button"
        role="combobox"
        aria-label={ariaLabel}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        data-value={value ? `${value.provider}:${value.modelId}` : ''}
        className={className ? `input model-select ${className}` : 'input model-select'}
        title={
          title ??
          (value
            ? `${text} — ${PROVIDER_LABELS[value.provider]}${windowText ? ' (this chat’s window)' : current?.windowFrom ? ` (window told by ${current.windowFrom})` : ''}`
            : undefined)
        }
        disabled={disabled || (value === null && !none)}
        onClick={() => (open ? close() : openList())}
        onKeyDown={onTriggerKey}
      >
        <span className="model-select-text">{text}</span>
        <ChevronDownIcon className="model-select-chevron" width={14} height={14} />
      </button>
      {open &&
        place &&
        createPortal(
          <div
            ref={popover}
            role="dialog"
            aria-label="Choose a model"
            className="model-select-popover"
            style={{ top: place.top, left: place.left, width: place.width, maxHeight: place.maxHeight }}
            onKeyDown={onPopoverKey}
          >
            <Command label="Search models" loop value={active} onValueChange={setActive}>
              <Command.Input
                className="model-select-search"
                placeholder="Search models…"
                autoFocus
                value={search}
                onValueChange={setSearch}
              />
              <Command.List id={listId} className="model-select-list" label="Models">
                <Command.Empty className="model-select-empty">No model matches “{search}”.</Command.Empty>
                {none && (
                  <Command.Item
                    value={NONE_VALUE}
                    keywords={[none.label]}
                    className="model-select-item"
                    data-current={value === null || undefined}
                    onSelect={() => {
                      close()
                      if (value !== null) none.onSelect()
                    }}
                  >
                    <span className="model-select-check" aria-hidden="true">
                      {value === null && <CheckIcon width={14} height={14} />}
                    </span>
                    <span className="model-select-name">{none.label}</span>
                  </Command.Item>
                )}
                {shown.map((group) => (
                  <Command.Group
                    key={group.provider}
                    heading={group.label}
                    className="model-select-group"
                    data-ready={group.ready || undefined}
                  >
                    {group.options.map((option) => {
                      const selected = option.provider === value?.provider && option.modelId === value?.modelId
                      return (
                        <Command.Item
                          key={option.value}
                          value={option.value}
                          keywords={[option.name, PROVIDER_LABELS[option.provider]]}
                          className="model-select-item"
                          data-current={selected || undefined}
                          onSelect={() => pick(option.provider, option.modelId)}
                        >
                          <span className="model-select-check" aria-hidden="true">
                            {selected && <CheckIcon width={14} height={14} />}
                          </span>
                          <span className="model-select-name">{option.name}</span>
                          {/* The separators make the option read as one phrase: "qwen3:8b · 32.8k · detected · images". */}
                          <span className="model-select-meta">
                            {option.window && (
                              <span
                                className="model-select-window"
                                title={option.windowFrom ? `Window told by ${option.windowFrom}` : undefined}
                              >
                                <span className="sr-only"> · </span>
                                {option.window}
                                {option.windowFrom ? ' · detected' : ''}
                              </span>
                            )}
                            {option.vision && (
                              <span className="model-select-images">
                                <span className="sr-only"> · </span>images
                              </span>
                            )}
                            {!group.ready && (
                              <span className="model-select-missing">
                                <span className="sr-only"> · </span>
                                {missing(group.label)}
                              </span>
                            )}
                          </span>
                        </Command.Item>
                      )
                    })}
                  </Command.Group>
                ))}
                {!showAll && search.trim() === '' && hiddenCount > 0 && (
                  <Command.Item
                    value="__show-all"
                    className="model-select-item model-select-more"
                    onSelect={() => setShowAll(true)}
                  >
                    Show all models ({hiddenCount} more need a key or address)
                  </Command.Item>
                )}
              </Command.List>
            </Command>
          </div>,
          document.body
        )}
    </>
  )
}
