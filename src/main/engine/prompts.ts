/** What every summary keeps (spec 002 Appendix B's guidelines). */
const SUMMARY_GUIDELINES = `**Guidelines:**
1. Preserve all key facts, decisions, and important context
2. Maintain chronological order of significant events
3. Keep technical details, code examples, and specific implementation decisions
4. Include tool invocations and their results when they matter
5. Use concise language to maximize information density
6. Focus on actionable information and outcomes
7. Omit pleasantries, greetings, and off-topic discussions
8. Keep names, numbers, dates, identifiers and quantities exactly as written`

/** Spec 002 Appendix B: the default summarization prompt, with room for a cascade and a focus. */
export const SUMMARY_SYSTEM_PROMPT = `You are a conversation summarization assistant. Your task is to create a concise yet comprehensive summary of the conversation history provided below.

${SUMMARY_GUIDELINES}`

export const SUMMARY_FORMAT = `Please provide a summary in the following format:

## Context
[Brief overview of the main topic and purpose of the conversation]

## Key Points
- [Important fact/decision 1]
- [Important fact/decision 2]
...

## Technical Details
[Code snippets, commands, configurations, or technical specifications discussed]

## Decisions and Outcomes
[Agreements reached, decisions made, next steps identified]

## Unresolved Questions
[Any open questions or pending items]`

export interface SummaryPromptInput {
  previousSummary?: string
  /** Transcript lines, oldest first, e.g. "User: …". */
  transcript: string
  targetTokens: number
  focus?: string
}

const speaker: Record<string, string> = { system: 'System', user: 'User', assistant: 'Assistant', tool: 'Tool' }

/** One message as a transcript line for the summarizer. */
export function transcriptLine(role: string, text: string): string {
  return `${speaker[role] ?? role}: ${text}`
}

/** The user prompt for the summarization call; the cascade (FR-1.4.2) folds the previous summary in. */
export function summaryPrompt(input: SummaryPromptInput): string {
  const parts: string[] = []
  if (input.previousSummary) {
    parts.push(
      '**Summary of the conversation so far** (merge it with the new messages into one updated summary; keep what still matters):',
      input.previousSummary,
      ''
    )
  }
  parts.push(
    input.previousSummary ? '**New messages since that summary:**' : '**Conversation History:**',
    input.transcript,
    ''
  )
  if (input.focus?.trim()) parts.push(`**The user asks you to focus on:** ${input.focus.trim()}`, '')
  parts.push(
    '**Summary:**',
    SUMMARY_FORMAT,
    '',
    `Stay under about ${input.targetTokens} tokens. Write only the summary.`
  )
  return parts.join('\n')
}

/**
 * How a summary asked inside the chat's own request starts (issue 34): that request repeats the
 * chat's last request word for word, so the provider's prompt cache serves it, and ends with this
 * instruction as its last user message. Tools and tests know such a request by it.
 */
export const IN_CHAT_SUMMARY_START = '[Distill: summary request, not a message to answer]'

export interface InChatSummaryPromptInput {
  /** How many messages after the summary (or from the start) the summary covers. */
  count: number
  /** The first and last of them, as transcript lines (they are quoted by their start). */
  first: string
  last: string
  /** 'merge': one summary of the summary above and the messages; 'append': only the messages; 'none': no summary yet. */
  mode: 'merge' | 'append' | 'none'
  targetTokens: number
}

/** A message's start, quoted so the model can find it in the conversation above. */
function quoteStart(line: string): string {
  const flat = line.replace(/\s+/g, ' ').trim()
  return flat.length > 80 ? `"${flat.slice(0, 80)}…"` : `"${flat}"`
}

/** The instruction that ends a summary request asked inside the chat (the chat's messages come before it). */
export function inChatSummaryPrompt(input: InChatSummaryPromptInput): string {
  const where = input.mode === 'none' ? 'of the conversation above' : 'after the summary of the earlier conversation'
  const span =
    input.count === 1
      ? `the first message ${where} (${quoteStart(input.first)})`
      : `the first ${input.count} messages ${where} (from ${quoteStart(input.first)} to ${quoteStart(input.last)})`
  const how =
    input.mode === 'merge'
      ? 'Write one updated summary: merge that summary with those messages, keeping what still matters.'
      : input.mode === 'append'
        ? 'Your text is appended to that summary, which stays as it is: do not repeat what it already says.'
        : ''
  return [
    IN_CHAT_SUMMARY_START,
    `Summarize ${span}. ${how}`.trim(),
    'Leave out every later message: those stay in the conversation word for word.',
    '',
    SUMMARY_GUIDELINES,
    '',
    SUMMARY_FORMAT,
    '',
    `Stay under about ${input.targetTokens} tokens. Write only the summary.`
  ].join('\n')
}
