export * from './session'
export * from './chat-message'
export * from './settings'
export * from './provider'
