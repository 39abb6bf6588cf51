import type { AttachmentStore } from '../attachments/attachment-store'
import type { ChatService } from './chat-service'
import type { CompressionService } from './compression-service'
import type { HistoryService } from './history-service'
import type { ModelsService } from './models-service'
import type { ProvidersService } from './providers-service'
import type { RecallService } from './recall-service'
import type { SessionsService } from './sessions-service'
import type { SettingsService } from './settings-service'
import type { TitleService } from './title-service'
import type { UsageService } from './usage-service'

/** The services the composition root builds over one database, which the handlers are thin over. */
export interface Services {
  sessions: SessionsService
  chat: ChatService
  settings: SettingsService
  providers: ProvidersService
  models: ModelsService
  usage: UsageService
  compression: CompressionService
  history: HistoryService
  recall: RecallService
  titles: TitleService
  attachments: AttachmentStore
}
