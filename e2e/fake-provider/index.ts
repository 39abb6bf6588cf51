/** Scripted fake of the OpenAI, Anthropic and Gemini HTTP APIs for tests and offline use. See README.md. */
export { startFakeProvider, type FakeProvider, type FakeProviderOptions, type ProbeRequest } from './server'
export { estimateInputTokens, estimateOutputTokens } from './reply'
export type { ChatMessage, Fault, RecordedRequest, ScriptStep } from './types'
