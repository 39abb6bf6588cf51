import type { AttachmentStore } from '../attachments/attachment-store'
import type { ChatService } from './chat/chat-service'
import type { PinService } from './chat/pin-service'
import type { CompressionService } from './compression/compression-service'
import type { SummarySourcesService } from './sessions/summary-sources'
import type { HistoryService } from './history/history-service'
import type { ModelsService } from './settings/models-service'
import type { ProvidersService } from './settings/providers-service'
import type { RecallService } from './recall/recall-service'
import type { ProjectsService } from './sessions/projects-service'
import type { SessionsService } from './sessions/sessions-service'
import type { SettingsService } from './settings/settings-service'
import type { TitleService } from './chat/title-service'
import type { UsageService } from './conversation/usage-service'
import type { NextRequestService } from './next-request/next-request'

/** The services the composition root builds over one database, which the handlers are thin over. */
export interface Services {
  sessions: SessionsService
  chat: ChatService
  pins: PinService
  settings: SettingsService
  providers: ProvidersService
  models: ModelsService
  usage: UsageService
  /** The next request of a chat: what the send sends, the meter and the inspector show. */
  next: NextRequestService
  compression: CompressionService
  /** Where each line of a summary came from, computed when someone looks. */
  summarySources: SummarySourcesService
  history: HistoryService
  recall: RecallService
  titles: TitleService
  attachments: AttachmentStore
  projects: ProjectsService
}
