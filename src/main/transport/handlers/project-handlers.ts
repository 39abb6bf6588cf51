import type { Handlers } from '../router'
import type { Services } from '../../services/services'

type ProjectRoute =
  | 'projects.list'
  | 'projects.chats'
  | 'projects.create'
  | 'projects.rename'
  | 'projects.update'
  | 'projects.delete'
  | 'recall.leaveOut'

/** Thin: projects, and leaving a passage of another chat out of the next request. */
export function projectHandlers({ projects, recall, sessions }: Services): Pick<Handlers, ProjectRoute> {
  return {
    'projects.list': () => projects.list(),
    'projects.chats': ({ id }) => projects.chats(id),
    'projects.create': ({ name, recallAcrossChats }) => projects.create(name, recallAcrossChats),
    'projects.rename': ({ id, name }) => projects.rename(id, name),
    'projects.update': ({ id, recallAcrossChats }) => projects.update(id, { recallAcrossChats }),
    'projects.delete': ({ id }) => projects.remove(id),
    'recall.leaveOut': ({ sessionId, messageId, leftOut }) => {
      sessions.get(sessionId)
      return recall.leaveOut(sessionId, messageId, leftOut)
    }
  }
}
