export * from './sessions'
export * from './chat-messages'
export * from './session-snapshots'
export * from './settings'
