// `npm run dev`: the browser-mode server (built main process) behind Vite with hot reload for the
// renderer. Vite proxies the API to the server and presents itself with the server's own origin.
import { spawn, spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { createServer } from 'vite'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const built = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' })
if (built.status !== 0) process.exit(built.status ?? 1)

const server = spawn(process.execPath, [join(root, 'out/main/cli.js'), 'serve', ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit']
})
process.on('exit', () => server.kill())
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0))

const url = await new Promise((resolve, reject) => {
  let out = ''
  server.stdout.on('data', (d) => {
    out += d
    const match = /Distill is running at (\S+)/.exec(out)
    if (match) resolve(new URL(match[1]))
  })
  server.once('exit', (code) => reject(new Error(`distill serve exited with ${code}`)))
})
const target = url.origin
const rewrite = (proxy) =>
  proxy.on('proxyReq', (req) => {
    req.setHeader('origin', target)
  })
const vite = await createServer({
  root: join(root, 'src/renderer'),
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    proxy: {
      '/rpc': { target, changeOrigin: true, configure: rewrite },
      '/events': { target, changeOrigin: true, configure: rewrite }
    }
  }
})
await vite.listen()
const local = vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/'
console.log(`\nDistill (hot reload) at ${local}${url.hash}\n`)
