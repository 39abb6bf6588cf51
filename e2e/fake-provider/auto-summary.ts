import { type ChatMessage } from './types'

/** Where Distill's summary prompt puts the transcript (src/main/engine/prompts.ts). */
const TRANSCRIPT =
  /\*\*(?:Conversation History|New messages since that summary):\*\*\n([\s\S]*?)\n(?:\*\*The user asks you to focus on:\*\*|\*\*Summary:\*\*)/
const PREVIOUS =
  /\*\*Summary of the conversation so far\*\*[^\n]*\n([\s\S]*?)\n\*\*New messages since that summary:\*\*/
const SPEAKER = /^(User|Assistant|System|Tool): /
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
  const transcript = TRANSCRIPT.exec(prompt)?.[1]
  const parts = transcript
    ? transcriptMessages(transcript)
    : messages.filter((m) => m.role !== 'system').map((m): [string, string] => [m.role, m.text])
  const lines = parts.map(([who, text]) => `- ${who}: ${firstSentence(text)}`).filter((l) => !/: $/.test(l))
  const previous = PREVIOUS.exec(prompt)?.[1]?.trim()
  const summary = [...(previous ? [previous] : []), ...lines].join('\n') || 'Nothing to summarize.'
  return maxChars > 0 && summary.length > maxChars ? summary.slice(0, maxChars) : summary
}
