import type { AppInfo } from '../../../shared/contract'
import type { Services } from '../../services/services'
import type { Logger } from '../../services/service-deps'
import type { HttpServerOptions } from '../http'
import { answer, type Handlers } from '../router'
import { importDistillChatText } from '../../services/imports/import-distill-chat'
import { countFirst } from '../../services/chat/count-first'
import { summarySettled } from '../../services/chat/summary-settled'
import { projectHandlers } from './project-handlers'

/** Thin: each handler forwards its parsed input to a service. */
export function createHandlers(services: Services, info: () => AppInfo): Handlers {
  const { sessions, chat, settings, providers, models, usage, compression, history, recall, attachments } = services
  return {
    'app.info': () => info(),
    'sessions.list': (page) => sessions.page(page),
    'sessions.create': ({ title }) => sessions.create(title),
    'sessions.get': ({ id }) => sessions.get(id),
    'sessions.rename': ({ id, title }) => sessions.rename(id, title),
    'sessions.update': ({ id, ...change }) => {
      const session = sessions.update(id, change)
      // The window changes a chat's model only in its model picker: new chats start on the choice.
      if (change.provider !== undefined || change.modelId !== undefined) settings.chatModelChosen(session)
      return session
    },
    'sessions.delete': ({ id }) => sessions.remove(id),
    'sessions.search': ({ query }) => sessions.search(query),
    'sessions.export': ({ id, format }) => sessions.export(id, format),
    'sessions.import': ({ text }) => importDistillChatText(services, text),
    'chat.messages': ({ sessionId, ...cursor }) => chat.page(sessionId, cursor),
    'chat.send': async ({ sessionId, text, attachments: files }) => {
      await countFirst(services, sessionId, text)
      await recall.learnNames(sessions.get(sessionId), text)
      return chat.send(sessionId, text, files)
    },
    'chat.retry': ({ sessionId }) => chat.retry(sessionId),
    'chat.regenerate': async ({ sessionId, messageId }) => {
      await summarySettled(services, sessionId)
      return chat.regenerate(sessionId, messageId)
    },
    'chat.edit': async ({ sessionId, messageId, text }) => {
      await countFirst(services, sessionId, text)
      await recall.learnNames(sessions.get(sessionId), text)
      await summarySettled(services, sessionId)
      return chat.edit(sessionId, messageId, text)
    },
    'chat.version': ({ sessionId, messageId, number }) => chat.switchVersion(sessionId, messageId, number),
    'chat.stop': ({ sessionId }) => chat.stop(sessionId),
    'chat.pin': ({ sessionId, messageId, pinned }) => services.pins.pin(sessionId, messageId, pinned),
    'chat.pins': ({ sessionId }) => services.pins.list(sessionId),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => settings.update(patch),
    'providers.list': () => providers.list(),
    'providers.update': ({ provider, ...change }) => providers.update(provider, change),
    'providers.test': ({ provider, ...typed }) => providers.test(provider, typed),
    'models.list': ({ provider }) => models.list(provider),
    'chat.context': async ({ sessionId, draft = '', recall: withRecall = false }) => {
      // A long draft the request would cut is counted in slices first, and the names Recall would
      // look up are learned a few at a time: the meter then finds both remembered.
      await countFirst(services, sessionId, draft)
      if (withRecall) await recall.learnNames(sessions.get(sessionId), draft)
      return services.next.meter(sessionId, draft, { recall: withRecall })
    },
    'chat.cost': ({ sessionId }) => usage.cost(sessionId),
    'compression.preview': ({ sessionId, retentionTokens }) => compression.preview(sessionId, retentionTokens),
    'compression.run': ({ sessionId, retentionTokens, focus, summarizer }) =>
      compression.run(sessionId, { retentionOverride: retentionTokens, focus, summarizer }),
    'compression.cancel': ({ sessionId }) => compression.cancel(sessionId),
    'compression.undo': ({ sessionId }) => compression.undo(sessionId),
    'compression.regenerate': ({ sessionId, focus }) => compression.regenerate(sessionId, focus),
    'compression.snapshots': ({ sessionId }) => compression.snapshots(sessionId),
    'compression.newTopic': ({ sessionId }) => compression.newTopic(sessionId),
    'compression.active': ({ sessionId }) => compression.active(sessionId),
    'compression.editDraft': ({ sessionId, draftId, text }) => compression.editDraft(sessionId, draftId, text),
    'compression.acceptDraft': ({ sessionId, draftId, text }) => compression.acceptDraft(sessionId, draftId, text),
    'compression.discardDraft': ({ sessionId, draftId }) => compression.discardDraft(sessionId, draftId),
    'compression.regenerateDraft': ({ sessionId, focus }) => compression.regenerateDraft(sessionId, focus),
    'compression.editSummary': ({ sessionId, text }) => compression.editSummary(sessionId, text),
    'compression.sources': ({ sessionId, snapshotId }) => services.summarySources.forSnapshot(sessionId, snapshotId),
    'history.list': ({ sessionId, ...cursor }) => history.page(sessionId, cursor),
    'history.search': ({ sessionId, query }) => history.search(sessionId, query),
    'attachments.upload': (file) => attachments.uploadBase64(file),
    'attachments.manifest': ({ sessionId }) => {
      const cutoffSeq = compression.active(sessionId).summary?.cutoffSeq ?? 0
      return { cutoffSeq, items: attachments.summarized(sessionId, cutoffSeq) }
    },
    'attachments.content': ({ hash }) => {
      const row = attachments.describe(hash)
      return {
        mediaType: row?.mediaType ?? 'application/octet-stream',
        data: attachments.read(hash).toString('base64')
      }
    },
    'attachments.accepts': ({ sessionId }) => chat.attachmentsAccepted(sessionId),
    'history.recalls': ({ sessionId }) => {
      sessions.get(sessionId)
      return { replies: recall.replies(sessionId) }
    },
    ...projectHandlers(services)
  }
}

/**
 * Routes browser mode hands the request body's bytes: "Import chat" sends up to 48 MB, which is
 * parsed and checked on the import thread instead of this one.
 */
export function createRawHandlers(services: Services, log: Logger): NonNullable<HttpServerOptions['rawRoutes']> {
  return {
    'sessions.import': (body) => answer('sessions.import', () => importDistillChatText(services, body, true), log)
  }
}
