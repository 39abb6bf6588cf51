import type { z } from 'zod'
import { appRoutes } from './app'
import { attachmentRoutes } from './attachments'
import { compressionEvents, compressionRoutes } from './compression'
import { historyRoutes } from './history'
import { uiEvents } from './ui'
import { chatEvents, chatRoutes } from './chat'
import { pinRoutes } from './pins'
import { providerRoutes } from './providers'
import { projectEvents, projectRoutes } from './projects'
import { sessionEvents, sessionRoutes } from './sessions'
import { settingsEvents, settingsRoutes } from './settings'
import { usageEvents, usageRoutes } from './usage'

export * from './define'
export type { AppInfo } from './app'
export type { ChatCost, ContextUsage, TokenUsage } from './usage'
export type { CrossChatPassage } from './projects'
export type { CompressionPreview, CompressionReport, SummaryDraft, SummarySources } from './compression'
export type { CrossChatRecall, HistoryHit } from './history'
export type { UiCommand } from './ui'
export { HIGHLIGHT_END, HIGHLIGHT_START } from './history'

/** Every route of the app, by name, with its input and output schema. */
export const routes = {
  ...appRoutes,
  ...sessionRoutes,
  ...chatRoutes,
  ...pinRoutes,
  ...settingsRoutes,
  ...providerRoutes,
  ...usageRoutes,
  ...compressionRoutes,
  ...historyRoutes,
  ...attachmentRoutes,
  ...projectRoutes
}

/** Every event the main process pushes to the renderer. */
export const events = {
  ...sessionEvents,
  ...chatEvents,
  ...settingsEvents,
  ...usageEvents,
  ...compressionEvents,
  ...uiEvents,
  ...projectEvents
}

export type Routes = typeof routes
export type RouteName = keyof Routes
export type RouteInput<R extends RouteName> = z.input<Routes[R]['input']>
export type RouteOutput<R extends RouteName> = z.output<Routes[R]['output']>
/** The input a handler receives: already parsed, defaults applied. */
export type ParsedInput<R extends RouteName> = z.output<Routes[R]['input']>

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<E extends EventName> = z.output<Events[E]>
export interface EventEnvelope<E extends EventName = EventName> {
  event: E
  payload: EventPayload<E>
}

export function isRouteName(name: string): name is RouteName {
  return Object.prototype.hasOwnProperty.call(routes, name)
}

/** The name of the single IPC channel every request travels on. */
export const IPC_CHANNEL = 'distill:rpc'
export const IPC_EVENT_CHANNEL = 'distill:event'
