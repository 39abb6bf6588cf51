import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { Command } from 'commander'
import { Option } from 'commander'
import { isChatGPTExport, parseChatGPTExport, type ImportedConversation } from '../importers/chatgpt-export'
import { ImportError, parseOpenAIMessages } from '../importers/openai-messages'
import { buildModelRequest } from '../services/request-builder'
import { importDistillChat } from './import-distill-chat'
import { print, withApp } from './open-app'
import { parsePositiveInt } from './parse-options'
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
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { title?: string; json?: boolean }) => {
      if (await importDistillChat(program, file, opts)) return
      const conversations = readConversations(file)
      const total = conversations.reduce((s, c) => s + c.messages.length, 0)
      const bar = progressBar('Importing')
      const imported = await withApp(program, async (app) => {
        const out: Array<{ id: string; title: string; messages: number }> = []
        let done = 0
        for (const conv of conversations) {
          const session = app.services.sessions.create(conversations.length === 1 && opts.title ? opts.title : conv.title.slice(0, 200))
          for (const m of conv.messages) {
            await app.services.chat.append(session.id, m)
            bar.update(++done, total)
          }
          out.push({ id: session.id, title: session.title, messages: conv.messages.length })
        }
        return out
      })
      bar.stop()
      print(opts.json, { sessions: imported }, () => imported.map((s) => `Imported "${s.title}" (${s.messages} messages) as ${s.id}`).join('\n'))
    })

  program
    .command('sessions')
    .description('List chats, most recent first')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await withApp(program, async (app) => app.services.sessions.list())
      print(opts.json, list, () =>
        list.length === 0 ? 'No chats yet.' : list.map((s) => `${s.id}  ${String(s.messageCount).padStart(5)} msgs  ${s.title}`).join('\n')
      )
    })

  program
    .command('context')
    .description('Show exactly what the model would receive for the next message of a chat')
    .requiredOption('--session <id>', 'chat id (see `distill sessions`)')
    .option('--json', 'print JSON')
    .action(async (opts: { session: string; json?: boolean }) => {
      const out = await withApp(program, async (app) => {
        const conv = app.services.usage.conversation(opts.session)
        const request = buildModelRequest(conv)
        return {
          model: `${conv.spec.provider}:${conv.spec.id}`,
          tokens: request.context.tokens,
          budget: conv.budget,
          breakdown: request.context.breakdown,
          messages: [
            ...(request.system ? [{ role: 'system', content: request.system }] : []),
            ...request.messages.map((m) => ({ role: m.role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }))
          ]
        }
      })
      print(opts.json, out, () =>
        [`${out.model}: ${out.tokens} of ${out.budget.usable} usable tokens`, ...out.messages.map((m) => `--- ${m.role}\n${m.content}`)].join('\n')
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
    .action(async (opts: { session: string; focus?: string; retention?: number; summarizer?: 'extractive' | 'llm' | 'truncate'; json?: boolean }) => {
      const result = await withApp(program, (app) =>
        app.services.compression.run(opts.session, { focus: opts.focus, retentionOverride: opts.retention, summarizer: opts.summarizer })
      )
      print(opts.json, result, () =>
        [
          `Summarized ${result.report.messagesSummarized} messages with ${result.report.summarizer}: ${result.report.tokensBefore} → ${result.report.tokensAfter} tokens`,
          ...result.report.warnings.map((w) => `Warning: ${w}`),
          '',
          result.snapshot.content.summaryText
        ].join('\n')
      )
    })
}
