import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode
} from 'react'
import { toast } from 'sonner'
import type { SettingsPatch } from '../../../shared/domain/settings'
import { errorMessage } from '../api/api-error'
import { useSettingsStore } from '../stores/settings-store'

/**
 * The Settings page is one form: every section edits a draft, and one Save writes all that changed
 * (docs/decisions.md, "Settings: one Save"). A section registers a part that can check its
 * edits, say what to write, show the server's complaints and throw its edits away.
 */
export interface DraftPart {
  /** Shown in the save bar: "Unsaved changes: OpenAI, Custom models". */
  label: string
  /** Checks the edits and shows their errors; null when something is invalid (then nothing is written). */
  prepare(): PreparedPart | null
  /** The settings write was refused: show the field errors that are this part's; true when there were some. */
  claim?(error: unknown): boolean
  discard(): void
}

export interface PreparedPart {
  /** Settings this part changes; all parts' patches go to the server as one write, all or nothing. */
  patch?: SettingsPatch
  /** A write outside the settings (a provider's key and address); throws after showing its own error. */
  write?: () => Promise<void>
  /** Called once what this part prepared is written. */
  saved?: () => void
}

interface Registered {
  part: { current: DraftPart }
  dirty: boolean
}

interface DraftContext {
  register(id: string, part: { current: DraftPart }): () => void
  /** `label` while the part has edits, null when it has none. */
  setDirty(id: string, label: string | null): void
  saving: boolean
}

const Context = createContext<DraftContext | null>(null)

/** Joins a section to the page's draft. `dirty` is whether its fields differ from what is saved. */
export function useDraftPart(id: string, dirty: boolean, part: DraftPart): { saving: boolean } {
  const context = useContext(Context)
  if (!context) throw new Error('useDraftPart outside SettingsDraft')
  const ref = useRef(part)
  // The latest closures, for Save and Discard (which run after this render is on screen).
  useLayoutEffect(() => {
    ref.current = part
  })
  const { register, setDirty } = context
  useEffect(() => register(id, ref), [id, register])
  const label = dirty ? part.label : null
  useEffect(() => setDirty(id, label), [id, label, setDirty])
  return { saving: context.saving }
}

const FIX_FIELDS = 'Nothing was saved: fix the highlighted fields.'

/** Frames to wait for the errors to be on screen: a busy window may take a few to render them. */
const FOCUS_TRIES = 30

/** Moves the focus to the first field that says it is invalid, once the errors are on screen. */
export function focusFirstInvalid(root: ParentNode = document, tries = FOCUS_TRIES) {
  requestAnimationFrame(() => {
    const field = root.querySelector<HTMLElement>('.settings-pane [aria-invalid="true"]')
    if (field) field.focus()
    else if (tries > 1) focusFirstInvalid(root, tries - 1)
  })
}

export interface DraftState {
  dirtyLabels: string[]
  saving: boolean
  /** Set after a save that did not write everything; cleared by the next save, Discard, or nothing left to save. */
  problem: string | null
  save(): Promise<void>
  discard(): void
}

const StateContext = createContext<DraftState | null>(null)

export function useDraftState(): DraftState {
  const state = useContext(StateContext)
  if (!state) throw new Error('useDraftState outside SettingsDraft')
  return state
}

export function SettingsDraft({ children }: { children: ReactNode }) {
  const saveSettings = useSettingsStore((s) => s.save)
  const parts = useRef(new Map<string, Registered>())
  const [dirtyLabels, setDirtyLabels] = useState<ReadonlyMap<string, string>>(new Map())
  const [saving, setSaving] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const register = useCallback((id: string, part: { current: DraftPart }) => {
    parts.current.set(id, { part, dirty: false })
    return () => {
      parts.current.delete(id)
      setDirtyLabels((current) => withLabel(current, id, null))
    }
  }, [])

  const setDirty = useCallback((id: string, label: string | null) => {
    const entry = parts.current.get(id)
    if (entry) entry.dirty = label !== null
    setDirtyLabels((current) => withLabel(current, id, label))
  }, [])

  // Nothing left to save: a past failure is no longer news.
  if (dirtyLabels.size === 0 && problem !== null) setProblem(null)

  // "Fix the highlighted fields" lasts while a field is highlighted: editing one clears its mark, and
  // once none is left the sentence goes too (it sat there after every field was fixed).
  useEffect(() => {
    if (problem !== FIX_FIELDS) return
    const root = document.querySelector('.settings-pane')
    if (!root) return
    const observer = new MutationObserver(() => {
      if (!root.querySelector('[aria-invalid="true"]')) setProblem(null)
    })
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-invalid'] })
    return () => observer.disconnect()
  }, [problem])

  const save = useCallback(async () => {
    const dirty = [...parts.current.values()].filter((p) => p.dirty).map((p) => p.part.current)
    if (dirty.length === 0) return
    // Every part checks its fields first, so all mistakes show at once and nothing is half-written.
    const prepared = dirty.map((part) => ({ part, prepared: part.prepare() }))
    if (prepared.some((p) => p.prepared === null)) {
      setProblem(FIX_FIELDS)
      focusFirstInvalid()
      return
    }
    setSaving(true)
    setProblem(null)
    try {
      const patch: SettingsPatch = Object.assign({}, ...prepared.map((p) => p.prepared?.patch ?? {}))
      if (Object.keys(patch).length > 0) {
        try {
          await saveSettings(patch)
        } catch (error) {
          const claimed = prepared.map((p) => p.part.claim?.(error) ?? false).some(Boolean)
          setProblem(claimed ? FIX_FIELDS : `Nothing was saved: ${errorMessage(error)}`)
          if (claimed) focusFirstInvalid()
          return
        }
        for (const { prepared: p } of prepared) if (p?.patch) p.saved?.()
      }
      const failed: string[] = []
      for (const { part, prepared: p } of prepared) {
        if (!p?.write) continue
        try {
          await p.write()
          p.saved?.()
        } catch {
          failed.push(part.label)
        }
      }
      if (failed.length > 0) {
        setProblem(
          `Not saved: ${failed.join(', ')}.${failed.length < prepared.length ? ' Everything else was saved.' : ''}`
        )
        focusFirstInvalid()
      } else {
        toast.success('Settings saved')
      }
    } finally {
      setSaving(false)
    }
  }, [saveSettings])

  const discard = useCallback(() => {
    for (const entry of parts.current.values()) if (entry.dirty) entry.part.current.discard()
    setProblem(null)
  }, [])

  const context = useMemo(() => ({ register, setDirty, saving }), [register, setDirty, saving])
  const state = useMemo(
    () => ({ dirtyLabels: [...dirtyLabels.values()], saving, problem, save, discard }),
    [dirtyLabels, saving, problem, save, discard]
  )
  return (
    <Context.Provider value={context}>
      <StateContext.Provider value={state}>{children}</StateContext.Provider>
    </Context.Provider>
  )
}

function withLabel(labels: ReadonlyMap<string, string>, id: string, label: string | null): ReadonlyMap<string, string> {
  if ((labels.get(id) ?? null) === label) return labels
  const next = new Map(labels)
  if (label === null) next.delete(id)
  else next.set(id, label)
  return next
}
