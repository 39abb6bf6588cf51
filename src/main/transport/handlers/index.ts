import type { AppInfo } from '../../../shared/contract'
import type { Services } from '../../app'
import type { Handlers } from '../router'

/** Thin: each handler forwards its parsed input to a service. */
export function createHandlers(services: Services, info: () => AppInfo): Handlers {
  const { sessions, chat, settings, providers, models, usage } = services
  return {
    'app.info': () => info(),
    'sessions.list': ({ query }) => sessions.list(query),
    'sessions.create': ({ title }) => sessions.create(title),
    'sessions.get': ({ id }) => sessions.get(id),
    'sessions.rename': ({ id, title }) => sessions.rename(id, title),
    'sessions.update': ({ id, ...change }) => sessions.update(id, change),
    'sessions.delete': ({ id }) => sessions.remove(id),
    'chat.messages': ({ sessionId }) => chat.messages(sessionId),
    'chat.send': ({ sessionId, text }) => chat.send(sessionId, text),
    'chat.retry': ({ sessionId }) => chat.retry(sessionId),
    'chat.stop': ({ sessionId }) => chat.stop(sessionId),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => settings.update(patch),
    'providers.list': () => providers.list(),
    'providers.update': ({ provider, ...change }) => providers.update(provider, change),
    'models.list': ({ provider }) => models.list(provider),
    'chat.context': ({ sessionId, draft }) => usage.context(sessionId, draft)
  }
}
