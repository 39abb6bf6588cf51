import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { CATALOG, resolveModel, type ModelSpec } from '../models/catalog'
import { parseOpenAIMessages } from '../imports/openai-messages'
import { createConsoleLogger } from '../logger'
import { PROVIDER_ENV } from '../services/settings/providers-service'
import { createTokenCounter } from '../tokens/token-counter'

/** `gpt-4o`, `anthropic:claude-sonnet-4-5` or `openai/gpt-4.1`: the catalog model it names. */
export function findModel(name: string): ModelSpec {
  const match = /^(openai|anthropic|google|openai-compatible)[:/](.+)$/.exec(name)
  if (match) {
    const spec = resolveModel(match[1]!, match[2]!)
    if (spec) return spec
  } else {
    for (const provider of ['openai', 'anthropic', 'google'] as const) {
      const spec = resolveModel(provider, name)
      if (spec) return spec
    }
  }
  const known = CATALOG.map((m) => m.id).join(', ')
  throw new Error(`Unknown model "${name}". Known models: ${known}.`)
}

export function registerCount(program: Command): void {
  program
    .command('count')
    .description('Count the prompt tokens of an OpenAI-format messages file as the provider would')
    .requiredOption('--model <model>', 'model id, e.g. gpt-4o or anthropic:claude-sonnet-4-5')
    .option('--json', 'print JSON')
    .argument('<file>', 'a JSON array of messages, { "messages": [...] } or JSONL')
    .action(async (file: string, opts: { model: string; json?: boolean }) => {
      const spec = findModel(opts.model)
      const messages = parseOpenAIMessages(readFileSync(file, 'utf8'))
      const env = process.env
      const endpoint = (provider: 'anthropic' | 'google', fallback: string) => {
        const apiKey = env[PROVIDER_ENV[provider].key]
        return apiKey ? { apiKey, baseURL: env[PROVIDER_ENV[provider].baseURL] || fallback } : undefined
      }
      const anthropic = endpoint('anthropic', 'https://api.anthropic.com/v1')
      const google = endpoint('google', 'https://generativelanguage.googleapis.com/v1beta')
      const counter = createTokenCounter({
        remote: { ...(anthropic ? { anthropic } : {}), ...(google ? { google } : {}) },
        log: createConsoleLogger(true)
      })
      try {
        const result = await counter.countRequest(messages, spec)
        const out = {
          model: spec.id,
          tokens: result.tokens,
          method: result.counter,
          exact: result.exact,
          messages: messages.length
        }
        process.stdout.write(
          opts.json
            ? `${JSON.stringify(out)}\n`
            : `${out.tokens} prompt tokens for ${spec.label} (${out.messages} messages, ${out.exact ? 'exact' : 'estimate'}: ${out.method})\n`
        )
      } finally {
        counter.dispose()
      }
    })
}
