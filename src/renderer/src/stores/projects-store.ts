import { create } from 'zustand'
import type { Project } from '../../../shared/domain/project'
import type { SessionSummary } from '../../../shared/domain/session'
import { api } from '../api/client'
import { useSessionsStore } from './sessions-store'

const COLLAPSED_KEY = 'distill.collapsedProjects'
/** Several chat changes often arrive together (a message, then its title): the sections reload once. */
const RELOAD_MS = 50
let reloadTimer: ReturnType<typeof setTimeout> | undefined

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
  /** Each project's chats, most recently active first (read per project: the chat list is paged). */
  chats: Record<string, SessionSummary[]>
  /** Sections the user folded (remembered on this device). */
  collapsed: Record<string, true>
  /** The chat whose "Move to project" dialog is open. */
  movingChat: string | null
  load(): Promise<void>
  loadChats(id: string): Promise<void>
  /** A chat was created, changed, moved or deleted: the open sections read their chats again. */
  sessionsChanged(): void
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
    chats: {},
    collapsed: readCollapsed(),
    movingChat: null,

    async load() {
      set({ projects: await api.request('projects.list', {}) })
    },
    async loadChats(id) {
      const chats = await api.request('projects.chats', { id })
      set((s) => ({ chats: { ...s.chats, [id]: chats } }))
    },
    sessionsChanged() {
      clearTimeout(reloadTimer)
      reloadTimer = setTimeout(() => {
        for (const p of get().projects)
          if (!get().collapsed[p.id])
            void get()
              .loadChats(p.id)
              .catch(() => undefined)
      }, RELOAD_MS)
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
