import { z } from 'zod'
import { settingsPatchSchema, settingsSchema } from '../domain/settings'
import { route } from './define'

export const settingsRoutes = {
  'settings.get': route(z.object({}).strict(), settingsSchema),
  'settings.update': route(settingsPatchSchema, settingsSchema)
}

export const settingsEvents = {
  'settings.changed': z.object({ settings: settingsSchema })
}
