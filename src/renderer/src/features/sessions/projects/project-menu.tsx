import { useState } from 'react'
import { toast } from 'sonner'
import type { Project } from '../../../../../shared/domain/project'
import { errorMessage } from '../../../api/api-error'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { useProjectsStore } from '../../../stores/projects-store'
import { ChatMenu } from '../list/chat-menu'
import { ProjectNameDialog } from './project-name-dialog'

/** A project's actions: rename, Recall across its chats on or off, delete (its chats stay, unfiled). */
export function ProjectMenu({ project }: { project: Project }) {
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null)
  const store = useProjectsStore.getState

  async function setRecall(on: boolean) {
    try {
      await store().setRecallAcrossChats(project.id, on)
      // A name in a sentence goes as it is, set off in italics rather than in quotation marks.
      toast.success(
        on ? (
          <>
            Chats in <em>{project.name}</em> can recall each other
          </>
        ) : (
          <>
            Chats in <em>{project.name}</em> recall only themselves
          </>
        )
      )
    } catch (error) {
      toast.error('Could not change the project', { description: errorMessage(error) })
    }
  }

  return (
    <>
      <ChatMenu
        label={`Actions for project ${project.name}`}
        items={[
          { label: 'Rename project…', onSelect: () => setDialog('rename') },
          project.recallAcrossChats
            ? { label: 'Stop Recall across its chats', onSelect: () => void setRecall(false) }
            : { label: 'Allow Recall across its chats', onSelect: () => void setRecall(true) },
          { label: 'Delete project…', onSelect: () => setDialog('delete') }
        ]}
      />
      <ProjectNameDialog
        open={dialog === 'rename'}
        onOpenChange={(open) => setDialog(open ? 'rename' : null)}
        title="Rename project"
        initial={project.name}
        confirmLabel="Rename"
        onSave={(name) => store().rename(project.id, name)}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => setDialog(open ? 'delete' : null)}
        title="Delete project?"
        description={
          <>
            <strong className="dialog-subject">{project.name}</strong> will be deleted. Its chats stay, outside any
            project.
          </>
        }
        confirmLabel="Delete project"
        destructive
        onConfirm={async () => {
          try {
            await store().remove(project.id)
            setDialog(null)
          } catch (error) {
            toast.error('Could not delete the project', { description: errorMessage(error) })
          }
        }}
      />
    </>
  )
}
