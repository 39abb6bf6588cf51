import { useEffect, useId, useState } from 'react'
import type { Project } from '../../../../../shared/domain/project'
import type { SessionSummary } from '../../../../../shared/domain/session'
import { PlusIcon } from '../../../components/icons'
import { useChatStore } from '../../../stores/chat/chat-store'
import { useProjectsStore } from '../../../stores/projects-store'
import { useUiStore } from '../../../stores/ui-store'
import { ProjectMenu } from './project-menu'
import { ProjectNameDialog } from './project-name-dialog'
import { SessionItem } from '../list/session-item'
import './projects.css'

/** The chats the sidebar lists outside the project sections: all of them while searching. */
export function unfiledChats(sessions: SessionSummary[], searching: boolean): SessionSummary[] {
  return searching ? sessions : sessions.filter((s) => !s.projectId)
}

/** The project sections above the unfiled chats, and New project. Hidden while searching. */
export function ProjectSections() {
  const projects = useProjectsStore((s) => s.projects)
  const [naming, setNaming] = useState(false)

  useEffect(() => {
    void useProjectsStore.getState().load()
  }, [])

  return (
    <div className="project-sections">
      <div className="project-sections-head">
        <span className="project-sections-title">Projects</span>
        <button
          type="button"
          className="icon-button"
          aria-label="New project"
          title="New project"
          onClick={() => setNaming(true)}
        >
          <PlusIcon />
        </button>
      </div>
      {projects.map((project) => (
        <ProjectSection key={project.id} project={project} />
      ))}
      {/* The chats listed below are not the project list's: say so even before the first project. */}
      <div className="project-sections-unfiled">{projects.length > 0 ? 'Other chats' : 'Chats'}</div>
      <ProjectNameDialog
        open={naming}
        onOpenChange={setNaming}
        title="New project"
        confirmLabel="Create"
        onSave={(name) => useProjectsStore.getState().create(name)}
      />
    </div>
  )
}

const NO_CHATS: SessionSummary[] = []

function ProjectSection({ project }: { project: Project }) {
  const collapsed = useProjectsStore((s) => Boolean(s.collapsed[project.id]))
  const chats = useProjectsStore((s) => s.chats[project.id] ?? NO_CHATS)

  // Read when the section opens; kept current by sessions.changed afterwards.
  useEffect(() => {
    if (!collapsed)
      void useProjectsStore
        .getState()
        .loadChats(project.id)
        .catch(() => undefined)
  }, [collapsed, project.id])
  const selectedId = useUiStore((s) => s.selectedSessionId)
  const listId = useId()

  return (
    <section className="project-section" aria-label={`Project ${project.name}`}>
      <div className="project-head">
        <button
          type="button"
          className="project-toggle"
          aria-expanded={!collapsed}
          aria-controls={listId}
          onClick={() => useProjectsStore.getState().toggle(project.id)}
        >
          <span className="project-caret" aria-hidden="true" data-collapsed={collapsed || undefined} />
          <span className="project-name">{project.name}</span>
          <span className="project-count">{chats.length}</span>
          {project.recallAcrossChats && (
            <span className="project-recall" title="Shared recall: Recall reaches across this project’s chats">
              <svg
                width="12"
                height="12"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.4"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
                focusable="false"
              >
                <path d="M4 8h15l-4-4M20 16H5l4 4" />
              </svg>
              <span className="sr-only">Shared recall</span>
            </span>
          )}
        </button>
        <ProjectMenu project={project} />
      </div>
      {!collapsed && (
        <ul id={listId} className="session-list project-chats" aria-label={`Chats in ${project.name}`}>
          {chats.length === 0 && (
            <li className="project-empty muted">No chats yet. Use “Move to project” in a chat’s menu.</li>
          )}
          {chats.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              active={session.id === selectedId}
              onOpen={(id) => {
                useChatStore.getState().loadUnlessLoaded(id)
                useUiStore.getState().openSession(id)
              }}
            />
          ))}
        </ul>
      )}
    </section>
  )
}
