import { IN_CHAT_SUMMARY_START } from './auto-summary'
import type { ChatMessage } from './types'

/**
 * Distill names a chat after its first reply with a request whose system prompt starts with this
 * sentence (src/main/services/title-service.ts). Such requests take scripted steps marked
 * `"for": "title"` and never the chat's own steps, so scripts of replies stay as they were.
 */
export const TITLE_PROMPT_START = 'Write a short title for this chat.'

export function isTitleRequest(messages: readonly ChatMessage[]): boolean {
  return messages.some((m) => m.role === 'system' && m.text.trimStart().startsWith(TITLE_PROMPT_START))
}

/** The unscripted title: the first line of the user's first message, as the app's own fallback would be. */
export function defaultTitle(messages: readonly ChatMessage[]): string {
  const prompt = messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const line = /^User: (.*)$/m.exec(prompt)?.[1]?.trim()
  return line || 'Untitled chat'
}

/** Distill's summarization requests start their system prompt with this (src/main/engine/prompts.ts). */
export const SUMMARY_PROMPT_START = 'You are a conversation summarization assistant.'

/** A summary asked inside the chat's request ends with a user message that starts so (see auto-summary.ts). */
export function isSummaryRequest(messages: readonly ChatMessage[]): boolean {
  return (
    messages.some((m) => m.role === 'system' && m.text.trimStart().startsWith(SUMMARY_PROMPT_START)) ||
    (messages.at(-1)?.role === 'user' && messages.at(-1)!.text.startsWith(IN_CHAT_SUMMARY_START))
  )
}
