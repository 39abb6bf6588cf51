import { useRef, useState } from 'react'
import { toast } from 'sonner'
import { api } from '../../../api/client'
import { errorMessage } from '../../../api/api-error'
import { ImportIcon } from '../../../components/icons'
import { useUiStore } from '../../../stores/ui-store'

/** "3 messages, 2 files" */
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

/** A project name as compared (the main process folds the same way): "ÄLPHA" is "älpha". */
const foldName = (name: string) => name.trim().normalize('NFKC').toLowerCase().normalize('NFKC')

/** Puts an imported chat in the project its file names: the one of that name, or a new one. */
async function addToProject(sessionId: string, name: string): Promise<void> {
  try {
    const projects = await api.request('projects.list', {})
    const project =
      projects.find((p) => foldName(p.name) === foldName(name)) ?? (await api.request('projects.create', { name }))
    await api.request('sessions.update', { id: sessionId, projectId: project.id })
    toast.success(
      <>
        Added to <em>{project.name}</em>
      </>
    )
  } catch (error) {
    toast.error(
      <>
        Could not add the chat to <em>{name}</em>
      </>,
      { description: errorMessage(error) }
    )
  }
}

/**
 * Imports a chat saved with "Export as JSON": a new chat with its summaries and files, opened
 * when it arrives. A damaged file is refused with a sentence and changes nothing.
 */
export function ImportChatButton() {
  const inputRef = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState(false)

  async function importFile(file: File) {
    setBusy(true)
    try {
      const imported = await api.request('sessions.import', { text: await file.text() })
      useUiStore.getState().openSession(imported.id)
      const files = imported.attachments ? `, ${counted(imported.attachments, 'file', 'files')}` : ''
      // The chat stays out of the project its file names until the user says so: in a project, its
      // text would reach the project's other chats through Recall.
      const project = imported.project
      toast.success(`Imported “${imported.title}”`, {
        description: (
          <>
            {counted(imported.messages, 'message', 'messages')}
            {files}
            {project && (
              <>
                . The file names the project <em>{project}</em>.
              </>
            )}
          </>
        ),
        ...(project
          ? {
              duration: 12_000,
              action: { label: `Add to ${project}`, onClick: () => void addToProject(imported.id, project) }
            }
          : {})
      })
    } catch (error) {
      toast.error(`Could not import ${file.name}`, { description: errorMessage(error) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <button
        type="button"
        className="sidebar-link"
        title="Import a chat saved with Export as JSON"
        disabled={busy}
        onClick={() => inputRef.current?.click()}
      >
        <ImportIcon />
        Import chat
      </button>
      <input
        ref={inputRef}
        type="file"
        hidden
        accept=".json,application/json"
        data-testid="import-chat-input"
        onChange={(event) => {
          const file = event.target.files?.[0]
          event.target.value = ''
          if (file) void importFile(file)
        }}
      />
    </>
  )
}
