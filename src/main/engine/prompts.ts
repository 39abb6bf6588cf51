/** Spec 002 Appendix B: the default summarization prompt, with room for a cascade and a focus. */
export const SUMMARY_SYSTEM_PROMPT = `You are a conversation summarization assistant. Your task is to create a concise yet comprehensive summary of the conversation history provided below.

**Guidelines:**
1. Preserve all key facts, decisions, and important context
2. Maintain chronological order of significant events
3. Keep technical details, code examples, and specific implementation decisions
4. Include tool invocations and their results when they matter
5. Use concise language to maximize information density
6. Focus on actionable information and outcomes
7. Omit pleasantries, greetings, and off-topic discussions
8. Keep names, numbers, dates, identifiers and quantities exactly as written`

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
