import type { Project } from '../../../shared/domain/project'
import type { SessionSummary } from '../../../shared/domain/session'
import { PROJECT_CHATS_MAX } from '../../../shared/contract/projects'
import {
  deleteProject,
  findProject,
  findProjectByName,
  insertProject,
  listProjects,
  projectChats,
  updateProject
} from '../../db/repositories/projects-repo'
import { notFound } from '../../../shared/app-error'
import type { ServiceDeps } from '../service-deps'

export type ProjectsService = ReturnType<typeof createProjectsService>

/** Projects: chats grouped by the user, and whether Recall may reach across a project's chats. */
export function createProjectsService({ db, clock, ids, emit }: ServiceDeps) {
  function changed(project: Project | undefined, id: string): Project {
    if (!project) throw notFound('The project')
    emit('projects.changed', { projectId: id })
    return project
  }

  return {
    list: (): Project[] => listProjects(db),

    /** The project's chats for its sidebar section, whatever page of the chat list they are on. */
    chats(id: string): SessionSummary[] {
      if (!findProject(db, id)) throw notFound('The project')
      return projectChats(db, id, PROJECT_CHATS_MAX)
    },

    get(id: string): Project {
      const project = findProject(db, id)
      if (!project) throw notFound('The project')
      return project
    },

    create(name: string, recallAcrossChats = false): Project {
      const project = insertProject(db, { id: ids(), name: name.trim(), recallAcrossChats, createdAt: clock.now() })
      return changed(project, project.id)
    },

    rename: (id: string, name: string): Project => changed(updateProject(db, id, { name: name.trim() }), id),

    update: (id: string, change: { recallAcrossChats: boolean }): Project => changed(updateProject(db, id, change), id),

    /** Deletes the project; its chats stay, unfiled. */
    remove(id: string): { id: string; chats: number } {
      const chats = deleteProject(db, id)
      if (!chats) throw notFound('The project')
      emit('projects.changed', { projectId: id })
      for (const sessionId of chats) emit('sessions.changed', { sessionId, reason: 'updated' })
      return { id, chats: chats.length }
    },

    /** The project an imported chat belongs to: the one of that name, else a new one (Recall across chats off). */
    join(name: string): Project {
      return findProjectByName(db, name) ?? this.create(name)
    }
  }
}
