import { useRef, useState } from 'react'

interface RenameFieldProps {
  initial: string
  /** Called with the trimmed new title, or null when the edit is abandoned. */
  onDone(title: string | null): void
}

/** Inline title editor: Enter saves, Escape cancels, leaving the field saves. */
export function RenameField({ initial, onDone }: RenameFieldProps) {
  const [value, setValue] = useState(initial)
  const finished = useRef(false)

  function finish(save: boolean) {
    if (finished.current) return
    finished.current = true
    const title = value.trim()
    onDone(save && title !== '' && title !== initial ? title : null)
  }

  return (
    <input
      className="rename-field"
      aria-label="Chat title"
      value={value}
      maxLength={200}
      autoFocus
      onFocus={(event) => event.currentTarget.select()}
      onChange={(event) => setValue(event.target.value)}
      onBlur={() => finish(true)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault()
          finish(true)
        } else if (event.key === 'Escape') {
          event.preventDefault()
          event.stopPropagation()
          finish(false)
        }
      }}
    />
  )
}
