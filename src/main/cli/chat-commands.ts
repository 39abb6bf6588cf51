import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { Command } from 'commander'
import { Option } from 'commander'
import { AppError } from '../../shared/app-error'
import { isChatGPTExport, parseChatGPTExport, type ImportedConversation } from '../imports/chatgpt-export'
import { ImportError, parseOpenAIMessages } from '../imports/openai-messages'
import { assertImportSize, importChats } from '../services/imports/import-chats'
import { readChatGPTExport, startsLikeChatGPTExport } from './read-chatgpt-export'
import { importDistillFile } from './import-distill-file'
import { print, withApp } from './open-app'
import { parsePositiveInt, readMessageFile } from './parse-options'
import { progressBar } from './progress'

function readConversations(file: string): ImportedConversation[] {
  const text = readFileSync(file, 'utf8')
  if (text.trimStart().startsWith('[')) {
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (err) {
      throw new ImportError(`The file is not valid JSON: ${(err as Error).message}`)
    }
    if (isChatGPTExport(data)) return parseChatGPTExport(data)
  }
  return [{ title: basename(file).replace(/\.(jsonl?|txt)$/i, ''), messages: parseOpenAIMessages(text) }]
}

export function registerChatCommands(program: Command): void {
  program
    .command('import')
    .description('Import chats: OpenAI-format messages (JSON or JSONL) or a ChatGPT conversations.json export')
    .argument('<file>')
    .option('--title <title>', 'title of the imported chat (single conversations)')
    .option('--again', 'import conversations that were imported before')
    .option('--join-project', 'put a Distill export in the project it names (joined by name, or made)')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { title?: string; again?: boolean; joinProject?: boolean; json?: boolean }) => {
      if (await importDistillFile(program, file, opts)) return
      // A ChatGPT export is read twice, a conversation at a time: checked whole, then written.
      const streamed = startsLikeChatGPTExport(file)
      let count = 0
      if (streamed) for await (const conv of readChatGPTExport(file)) assertImportSize(conv, count++, Infinity)
      const conversations = streamed ? readChatGPTExport(file) : readConversations(file)
      const bar = progressBar('Importing')
      const outcome = await withApp(
        program,
        (app) =>
          importChats(app, conversations, {
            source: basename(file),
            title: opts.title,
            again: opts.again,
            count,
            onProgress: (_phase, done, total) => bar.update(done, total)
          }),
        { command: 'import' }
      )
      bar.stop()
      const duplicates = outcome.skipped.filter((s) => s.sessionId)
      if (outcome.sessions.length === 0 && duplicates.length > 0) {
        const what =
          duplicates.length === 1
            ? `"${duplicates[0]!.title}": ${duplicates[0]!.reason}`
            : `all ${duplicates.length} chats in this file were imported before`
        throw new ImportError(
          `Nothing imported: ${what}. Use --again to import ${duplicates.length === 1 ? 'it' : 'them'} anyway.`
        )
      }
      print(opts.json, outcome, () =>
        [
          ...outcome.sessions.map(
            (s) =>
              `Imported "${s.title}" (${s.messages} messages${s.systemPrompt ? ', with its system prompt' : ''}) as ${s.id}`
          ),
          ...outcome.skipped.map((s) => `Skipped "${s.title}": ${s.reason}.`),
          ...(duplicates.length ? ['Use --again to import skipped chats anyway.'] : [])
        ].join('\n')
      )
    })

  program
    .command('sessions')
    .description('List chats, most recent first')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await withApp(program, async (app) => app.services.sessions.list(), {
        readOnly: true,
        command: 'sessions'
      })
      print(opts.json, list, () =>
        list.length === 0
          ? 'No chats yet.'
          : list.map((s) => `${s.id}  ${String(s.messageCount).padStart(5)} msgs  ${s.title}`).join('\n')
      )
    })

  program
    .command('context')
    .description('Show exactly what the model would receive for the next message of a chat')
    .requiredOption('--session <id>', 'chat id (see `distill sessions`)')
    .option('--message <text>', 'the request sending this message now would make (nothing is written)')
    .option('--message-file <file>', 'the same, with the message read from a file (- for standard input)')
    .option('--json', 'print JSON')
    .action(async (opts: { session: string; message?: string; messageFile?: string; json?: boolean }) => {
      if (opts.message !== undefined && opts.messageFile !== undefined)
        throw new AppError('invalid_input', 'Give the message with --message or --message-file, not both.')
      const message = opts.messageFile !== undefined ? readMessageFile(opts.messageFile) : opts.message
      const out = await withApp(
        program,
        async (app) => {
          // A send that compresses first is shown after that compression (computed, not stored); the
          // meter's report and the request come from the same measurement of the same state.
          const {
            summary: next,
            usage,
            conversation: conv,
            request
          } = await app.services.next.inspect(opts.session, message ?? '')
          return {
            model: `${conv.spec.provider}:${conv.spec.id}`,
            // The context as the meter and the inspector show it (the provider's tokens, by the budget's conversion).
            tokens: usage.tokens,
            // What the request built now carries, in the same unit (smaller only when something is cut or left out).
            requestTokens: conv.cost(request.context.tokens),
            countedTokens: request.context.tokens,
            // The stable part (system prompt, summary, pinned block, retained history): what the next
            // request repeats from this one unless a compression, an edit or a model switch comes
            // between, and so what a provider's prompt cache can serve.
            stablePrefixTokens: conv.cost(request.context.stableTokens),
            // The context before that compression, and the summary it would write (what follows is after it).
            ...(next
              ? {
                  summarizedFirst: {
                    tokensBefore: next.content.contextTokensBefore,
                    messages: next.content.messagesIncluded,
                    // A quick summary of an imported history's newest part: these older messages
                    // are announced in it and summarized whole in the background after the send.
                    ...(next.content.backlog ? { backlog: next.content.backlog } : {})
                  }
                }
              : {}),
            compressionDue: usage.compressionDue,
            // Unsummarized messages this request would not carry (auto-compression off and the history too large).
            leftOut: usage.leftOut,
            summarized: usage.summarizedMessages,
            budget: conv.budget,
            breakdown: request.context.breakdown,
            recalled: { tokens: request.context.breakdown.recalled, messageIds: request.recalledIds },
            // Tokens cut from the middle of the message because it is larger than the window allows.
            inputCut: request.inputCut?.tokens ?? 0,
            messages: [
              ...(request.system ? [{ role: 'system', content: request.system }] : []),
              ...request.messages.map((m) => ({
                role: m.role,
                content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content)
              }))
            ]
          }
        },
        { readOnly: true, command: 'context' }
      )
      print(opts.json, out, () =>
        [
          `${out.model}: ${out.tokens} of ${out.budget.usable} usable tokens`,
          ...(out.summarizedFirst
            ? [
                `Sending this summarizes older messages first (context ${out.summarizedFirst.tokensBefore} tokens before); shown as it would be after that summary.`
              ]
            : []),
          ...(out.compressionDue
            ? ['The next message summarizes older messages first: the context passed the threshold.']
            : []),
          ...(out.leftOut
            ? [
                `Auto-compression is off and the history does not fit: the ${out.leftOut} oldest unsummarized messages would be left out.`
              ]
            : []),
          ...(out.inputCut
            ? [`The message is larger than the window allows: about ${out.inputCut} tokens are cut from its middle.`]
            : []),
          ...out.messages.map((m) => `--- ${m.role}\n${m.content}`)
        ].join('\n')
      )
    })

  program
    .command('compress')
    .description('Summarize a chat now (manual compression)')
    .requiredOption('--session <id>', 'chat id (see `distill sessions`)')
    .option('--focus <text>', 'what the summary should keep')
    .option('--retention <tokens>', 'tokens of recent messages to keep verbatim', parsePositiveInt)
    .addOption(new Option('--summarizer <s>', 'who writes the summary').choices(['extractive', 'llm', 'truncate']))
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        session: string
        focus?: string
        retention?: number
        summarizer?: 'extractive' | 'llm' | 'truncate'
        json?: boolean
      }) => {
        const result = await withApp(
          program,
          (app) =>
            app.services.compression.run(opts.session, {
              focus: opts.focus,
              retentionOverride: opts.retention,
              summarizer: opts.summarizer
            }),
          { command: 'compress' }
        )
        print(opts.json, result, () =>
          [
            `Summarized ${result.report.messagesSummarized} messages with ${result.report.summarizer}: ${result.report.tokensBefore} → ${result.report.tokensAfter} tokens`,
            ...result.report.warnings.map((w) => `Warning: ${w}`),
            '',
            result.snapshot.content.summaryText
          ].join('\n')
        )
      }
    )
}
