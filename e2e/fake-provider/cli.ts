/**
 * `npm run fake-provider -- --port 8787` (wired by the build). Runs the fake until Ctrl-C.
 * Kept free of TS-only runtime features so any bundler (esbuild/vite) can emit it as plain ESM.
 */
import { startFakeProvider } from './index'

function usage(): never {
  console.error(
    'usage: fake-provider [--port N] [--host H] [--bad-key K] [--no-auth] [--usage-factor F] [--context-window N]\n' +
      '                     [--no-cache] [--reject-cache-fields] [--auto-summaries] [--quiet]'
  )
  process.exit(2)
}

function parseArgs(argv: string[]) {
  const opts: {
    port: number
    host: string
    badKey: string
    requireKey: boolean
    quiet: boolean
    usageFactor: number
    contextWindow?: number
    cache: boolean
    rejectCacheFields: boolean
    autoSummaries: boolean
  } = {
    port: 0,
    host: '127.0.0.1',
    badKey: 'bad-key',
    requireKey: true,
    quiet: false,
    usageFactor: 1,
    cache: true,
    rejectCacheFields: false,
    autoSummaries: false
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => argv[++i] ?? usage()
    if (arg === '--port') {
      opts.port = Number(value())
      if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) usage()
    } else if (arg === '--host') opts.host = value()
    else if (arg === '--bad-key') opts.badKey = value()
    else if (arg === '--no-auth') opts.requireKey = false
    else if (arg === '--quiet') opts.quiet = true
    else if (arg === '--no-cache') opts.cache = false
    else if (arg === '--reject-cache-fields') opts.rejectCacheFields = true
    else if (arg === '--auto-summaries') opts.autoSummaries = true
    else if (arg === '--usage-factor') {
      opts.usageFactor = Number(value())
      if (!(opts.usageFactor > 0)) usage()
    } else if (arg === '--context-window') {
      opts.contextWindow = Number(value())
      if (!Number.isInteger(opts.contextWindow) || opts.contextWindow <= 0) usage()
    } else usage()
  }
  return opts
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2))
  const server = await startFakeProvider({ ...opts, log: opts.quiet ? undefined : (line) => console.log(line) })
  const { url, baseURLs } = server
  console.log(`Fake provider listening on ${url}`)
  console.log('Point Distill at it with:')
  console.log(`  OPENAI_BASE_URL=${baseURLs.openai}`)
  console.log(`  ANTHROPIC_BASE_URL=${baseURLs.anthropic}`)
  console.log(`  GOOGLE_GENERATIVE_AI_BASE_URL=${baseURLs.google}`)
  console.log(`  OPENAI_COMPATIBLE_BASE_URL=${baseURLs.openaiCompatible}`)
  console.log(
    `Any API key works except "${opts.badKey}". Faults: put [fake:429] [fake:500] [fake:401] [fake:stall] [fake:cut] [fake:slow] in a message.`
  )
  console.log(`Script: curl -X POST ${url}/__script -d '[{"reply":"Hi"},{"fault":"http429","retryAfterSeconds":2}]'`)
  console.log(`Expire the prompt cache: curl -X POST ${url}/__cache/advance -d '{"ms":300001}'`)
  const stop = () => {
    void server.close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
