export * from './session'
export * from './chat-message'
export * from './settings'
