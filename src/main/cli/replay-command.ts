import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { Option } from 'commander'
import { parseOpenAIMessages } from '../imports/openai-messages'
import { replayConversation } from './replay'
import { findModel } from './count-command'
import { withScratchApp, print } from './open-app'
import { parsePositiveInt } from './parse-options'
import { progressBar } from './progress'

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('Feed a conversation through the real auto-compression path and report what happened')
    .argument('<file>', 'OpenAI-format messages (JSON array, { "messages": [...] } or JSONL)')
    .requiredOption('--model <model>', 'model id, e.g. gpt-4o')
    .option('--context-window <n>', "override the model's context window", parsePositiveInt)
    .option('--max-output <n>', "override the model's max output", parsePositiveInt)
    .addOption(
      new Option('--strategy <s>', 'compression strategy')
        .choices(['rolling', 'tiered', 'importance'])
        .default('rolling')
    )
    .addOption(
      new Option('--summarizer <s>', 'who writes summaries')
        .choices(['extractive', 'llm', 'truncate'])
        .default('extractive')
    )
    .option('--json', 'print JSON')
    .action(
      async (
        file: string,
        opts: {
          model: string
          contextWindow?: number
          maxOutput?: number
          strategy: 'rolling' | 'tiered' | 'importance'
          summarizer: 'extractive' | 'llm' | 'truncate'
          json?: boolean
        }
      ) => {
        const model = findModel(opts.model)
        const messages = parseOpenAIMessages(readFileSync(file, 'utf8'))
        const bar = progressBar('Replaying')
        const db = program.opts<{ db?: string }>().db
        const result = await withScratchApp(db, (app) =>
          replayConversation(app, messages, {
            model,
            contextWindow: opts.contextWindow,
            maxOutput: opts.maxOutput,
            summarizer: opts.summarizer,
            strategy: opts.strategy,
            onProgress: (done, total) => bar.update(done, total)
          })
        )
        bar.stop()
        const { seconds, ...out } = result
        print(opts.json, { ...out, seconds: Number(seconds.toFixed(3)) }, () =>
          [
            `${out.messages} messages, ${out.requests} requests, ${out.compressions} compressions, ${out.overflows} overflows`,
            `Largest context: ${out.maxContextTokens} tokens of ${out.budget.usable} usable (window ${out.budget.window})`,
            `Final context: ${out.context.tokens} tokens in ${out.context.messages.length} messages`,
            `Took ${seconds.toFixed(2)} s`,
            // Without --db the replay ran in a throwaway database: its chat is gone.
            ...(db ? [`Chat: ${out.sessionId} in ${db}`] : [])
          ].join('\n')
        )
      }
    )
}
