import { type ChatMessage } from './types'

/** Where Distill's summary prompt puts the transcript (src/main/engine/prompts.ts). */
const TRANSCRIPT =
  /\*\*(?:Conversation History|New messages since that summary):\*\*\n([\s\S]*?)\n(?:\*\*The user asks you to focus on:\*\*|\*\*Summary:\*\*)/
const PREVIOUS =
  /\*\*Summary of the conversation so far\*\*[^\n]*\n([\s\S]*?)\n\*\*New messages since that summary:\*\*/
const SPEAKER = /^(User|Assistant|System|Tool): /
/** How a summary asked inside the chat's request starts, and what it asks (src/main/engine/prompts.ts). */
export const IN_CHAT_SUMMARY_START = '[Distill: summary request, not a message to answer]'
const IN_CHAT_COUNT = /Summarize the first (?:(\d+) messages|message)/
const IN_CHAT_MERGE = /merge that summary/
/** The chat's summary message starts with this (src/main/engine/build-context.ts). */
const SUMMARY_PREFIX = 'Summary of the earlier conversation'
const MAX_SENTENCE = 200

/** A message's first sentence (or first line), at most 200 chars. */
function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? ''
  const end = /[.!?](\s|$)/.exec(line)
  const sentence = end ? line.slice(0, end.index + 1) : line
  return sentence.length > MAX_SENTENCE ? `${sentence.slice(0, MAX_SENTENCE - 1)}…` : sentence
}

/** Transcript lines ("User: …", continued on following lines) as [speaker, text] pairs. */
function transcriptMessages(transcript: string): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const line of transcript.split('\n')) {
    const m = SPEAKER.exec(line)
    if (m) out.push([m[1]!, line.slice(m[0].length)])
    else if (out.length > 0) out[out.length - 1]![1] += `\n${line}`
  }
  return out
}

/**
 * A deterministic stand-in for a model's summary, for benchmarks: the first sentence of each
 * message of the transcript in the request (or of the request's own messages when it has none),
 * one per line after the previous summary a cascade folds in, cut at `maxChars` (0: no cap).
 */
export function autoSummary(messages: readonly ChatMessage[], maxChars: number): string {
  const prompt = messages.filter((m) => m.role === 'user').at(-1)?.text ?? ''
  const inChat = inChatAsk(messages, prompt)
  const transcript = TRANSCRIPT.exec(prompt)?.[1]
  const parts = inChat
    ? inChat.parts
    : transcript
      ? transcriptMessages(transcript)
      : messages.filter((m) => m.role !== 'system').map((m): [string, string] => [m.role, m.text])
  const lines = parts.map(([who, text]) => `- ${who}: ${firstSentence(text)}`).filter((l) => !/: $/.test(l))
  const previous = inChat ? inChat.previous : PREVIOUS.exec(prompt)?.[1]?.trim()
  const summary = [...(previous ? [previous] : []), ...lines].join('\n') || 'Nothing to summarize.'
  return maxChars > 0 && summary.length > maxChars ? summary.slice(0, maxChars) : summary
}

/**
 * A summary asked inside the chat's request: the first N of the chat's messages, and the chat's
 * summary when the request asks to merge it.
 */
function inChatAsk(
  messages: readonly ChatMessage[],
  prompt: string
): { parts: Array<[string, string]>; previous?: string } | undefined {
  if (!prompt.startsWith(IN_CHAT_SUMMARY_START)) return undefined
  const match = IN_CHAT_COUNT.exec(prompt)
  const count = match ? Number(match[1] ?? 1) : 0
  const chat = messages.filter((m) => m.role !== 'system').slice(0, -1)
  const parts = chat.slice(0, count).map((m): [string, string] => [m.role === 'user' ? 'User' : 'Assistant', m.text])
  if (!IN_CHAT_MERGE.test(prompt)) return { parts }
  const system = messages.find((m) => m.role === 'system' && m.text.includes(SUMMARY_PREFIX))?.text ?? ''
  const previous = system.slice(system.indexOf(SUMMARY_PREFIX)).split('\n').slice(1).join('\n').trim()
  return { parts, ...(previous ? { previous } : {}) }
}
