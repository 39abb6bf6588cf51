import { create } from 'zustand'
import type { Project } from '../../../shared/domain/project'
import { api } from '../api/client'
import { useSessionsStore } from './sessions-store'

const COLLAPSED_KEY = 'distill.collapsedProjects'

function readCollapsed(): Record<string, true> {
  try {
    return JSON.parse(localStorage.getItem(COLLAPSED_KEY) ?? '{}') as Record<string, true>
  } catch {
    return {}
  }
}

interface ProjectsState {
  /** Every project, by name. */
  projects: Project[]
  /** Sections the user folded (remembered on this device). */
  collapsed: Record<string, true>
  /** The chat whose "Move to project" dialog is open. */
  movingChat: string | null
  load(): Promise<void>
  create(name: string): Promise<Project>
  rename(id: string, name: string): Promise<Project>
  setRecallAcrossChats(id: string, on: boolean): Promise<Project>
  remove(id: string): Promise<number>
  /** Puts a chat in a project (null: out of any). */
  moveChat(sessionId: string, projectId: string | null): Promise<void>
  toggle(id: string): void
  openMove(sessionId: string | null): void
}

export const useProjectsStore = create<ProjectsState>()((set, get) => {
  const replace = (project: Project) =>
    set((s) => ({
      projects: [...s.projects.filter((p) => p.id !== project.id), project].sort((a, b) => a.name.localeCompare(b.name))
    }))
  return {
    projects: [],
    collapsed: readCollapsed(),
    movingChat: null,

    async load() {
      set({ projects: await api.request('projects.list', {}) })
    },
    async create(name) {
      const project = await api.request('projects.create', { name })
      replace(project)
      return project
    },
    async rename(id, name) {
      const project = await api.request('projects.rename', { id, name })
      replace(project)
      return project
    },
    async setRecallAcrossChats(id, on) {
      const project = await api.request('projects.update', { id, recallAcrossChats: on })
      replace(project)
      return project
    },
    async remove(id) {
      const { chats } = await api.request('projects.delete', { id })
      set((s) => ({ projects: s.projects.filter((p) => p.id !== id) }))
      return chats
    },
    async moveChat(sessionId, projectId) {
      await useSessionsStore.getState().update(sessionId, { projectId })
    },
    toggle(id) {
      const { [id]: was, ...rest } = get().collapsed
      const collapsed: Record<string, true> = was ? rest : { ...rest, [id]: true }
      set({ collapsed })
      try {
        localStorage.setItem(COLLAPSED_KEY, JSON.stringify(collapsed))
      } catch {
        // Private mode: folding still works for this session.
      }
    },
    openMove: (sessionId) => set({ movingChat: sessionId })
  }
})
