import { useRef, useState, type DragEvent } from 'react'
import { attachFiles } from './attach-files'
import './file-drop.css'

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files')

/** Dropping files anywhere on the chat attaches them to its draft; an outline says where they go. */
export function useFileDrop(sessionId: string) {
  const [dragging, setDragging] = useState(false)
  // dragenter/dragleave fire for every child crossed: count them so the outline does not flicker.
  const depth = useRef(0)
  const handlers = {
    onDragEnter(event: DragEvent) {
      if (!hasFiles(event)) return
      event.preventDefault()
      depth.current += 1
      setDragging(true)
    },
    onDragOver(event: DragEvent) {
      if (!hasFiles(event)) return
      event.preventDefault()
      event.dataTransfer.dropEffect = 'copy'
    },
    onDragLeave(event: DragEvent) {
      if (!hasFiles(event)) return
      depth.current = Math.max(0, depth.current - 1)
      if (depth.current === 0) setDragging(false)
    },
    onDrop(event: DragEvent) {
      if (!hasFiles(event)) return
      event.preventDefault()
      depth.current = 0
      setDragging(false)
      void attachFiles(sessionId, [...event.dataTransfer.files])
    }
  }
  return { dragging, handlers }
}

export function DropOverlay({ visible }: { visible: boolean }) {
  if (!visible) return null
  return (
    <div className="drop-overlay" aria-hidden="true">
      <span>Drop files to attach them</span>
    </div>
  )
}
