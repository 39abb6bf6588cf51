import * as Dialog from '@radix-ui/react-dialog'
import { useState } from 'react'
import { toast } from 'sonner'
import type { Session } from '../../../../../shared/domain/session'
import { errorMessage } from '../../../api/api-error'
import { useProjectsStore } from '../../../stores/projects-store'
import { useSessionDetails, useSessionsStore } from '../../../stores/sessions-store'

type Override = 'project' | 'on' | 'off'
const overrideOf = (v: boolean | null): Override => (v === null ? 'project' : v ? 'on' : 'off')

/** "Move to project": the chat's project, and whether this chat alone recalls from the project's other chats. */
export function MoveToProjectDialog() {
  const sessionId = useProjectsStore((s) => s.movingChat)
  const session = useSessionDetails(sessionId)
  const close = () => useProjectsStore.getState().openMove(null)
  return (
    <Dialog.Root open={sessionId !== null} onOpenChange={(open) => !open && close()}>
      {sessionId !== null && session && (
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" aria-describedby={undefined}>
            <Dialog.Title className="dialog-title">Move to project</Dialog.Title>
            <MoveForm session={session} onDone={close} />
          </Dialog.Content>
        </Dialog.Portal>
      )}
    </Dialog.Root>
  )
}

function MoveForm({ session, onDone }: { session: Session; onDone(): void }) {
  const projects = useProjectsStore((s) => s.projects)
  const [projectId, setProjectId] = useState<string | null>(session.projectId)
  const [override, setOverride] = useState<Override>(overrideOf(session.recallAcrossChats))
  const [busy, setBusy] = useState(false)
  const project = projects.find((p) => p.id === projectId)

  async function save() {
    setBusy(true)
    try {
      await useSessionsStore.getState().update(session.id, {
        projectId,
        recallAcrossChats: override === 'project' ? null : override === 'on'
      })
      toast.success(
        project ? (
          <>
            Moved to <em>{project.name}</em>
          </>
        ) : (
          'Moved out of its project'
        )
      )
      onDone()
    } catch (error) {
      toast.error('Could not move the chat', { description: errorMessage(error) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <p className="dialog-description">
        <strong className="dialog-subject">{session.title}</strong> belongs to at most one project.
      </p>
      <fieldset className="project-choice">
        <legend>Project</legend>
        {projects.map((p) => (
          <label key={p.id}>
            <input type="radio" name="project" checked={projectId === p.id} onChange={() => setProjectId(p.id)} />
            {p.name}
          </label>
        ))}
        <label>
          <input type="radio" name="project" checked={projectId === null} onChange={() => setProjectId(null)} />
          No project
        </label>
        {projects.length === 0 && <p className="muted">No projects yet: create one with + beside Projects.</p>}
      </fieldset>
      <label className="project-name-field">
        <span>Recall from the project’s other chats</span>
        <select
          className="input"
          value={override}
          disabled={!project}
          onChange={(event) => setOverride(event.target.value as Override)}
        >
          <option value="project">
            As the project says{project ? ` (${project.recallAcrossChats ? 'allowed' : 'off'})` : ''}
          </option>
          <option value="on">Allowed for this chat</option>
          <option value="off">Off for this chat</option>
        </select>
      </label>
      <p className="muted project-note">
        Passages from other chats are labelled with their chat and date, and never reach a chat outside the project.
      </p>
      <div className="dialog-actions">
        <Dialog.Close asChild>
          <button type="button" className="button" disabled={busy}>
            Cancel
          </button>
        </Dialog.Close>
        <button type="submit" className="button button-primary" disabled={busy}>
          Save
        </button>
      </div>
    </form>
  )
}
