// The second client of door-stall.bench.ts, in a process of its own so nothing the bench does delays
// it: asks the server a cheap route (settings.get) every 5 ms, whether or not the previous answer has
// come, and times each answer from the moment the ping was due. Started with fork(); the parent sends
// { start } to begin a window and { stop } to end it, and gets back the window's figures once every
// ping sent in it has been answered. argv: origin, token.
import { Agent, request } from 'node:http'

const [origin, token] = process.argv.slice(2)
const url = new URL('/rpc/settings.get', origin)
// A few kept-alive sockets, as a browser keeps: a ping due while they are all busy waits its turn,
// and that wait counts, since it is the server's lateness.
const agent = new Agent({ keepAlive: true, maxSockets: 6 })
const EVERY_MS = 5

function ping() {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': 2 }
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode === 200))
        res.on('error', () => resolve(false))
      }
    )
    req.on('error', () => resolve(false))
    req.end('{}')
  })
}

/** The window being measured: each ping's round trip, and the pings still out. */
let window = null

function tick() {
  if (!window) return
  const w = window
  const due = performance.now()
  const answered = ping().then((ok) => {
    if (ok) w.rtts.push(performance.now() - due)
    else w.failed++
  })
  w.pending.add(answered)
  void answered.then(() => w.pending.delete(answered))
  w.timer = setTimeout(tick, EVERY_MS)
}

process.on('message', async (msg) => {
  if (msg.cmd === 'start') {
    window = { rtts: [], failed: 0, pending: new Set(), timer: undefined }
    tick()
  } else if (msg.cmd === 'stop') {
    const w = window
    window = null
    if (!w) return
    clearTimeout(w.timer)
    while (w.pending.size) await Promise.all([...w.pending])
    const sorted = [...w.rtts].sort((a, b) => a - b)
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
    process.send({
      count: sorted.length,
      failed: w.failed,
      max: sorted.at(-1) ?? NaN,
      over50: sorted.filter((ms) => ms > 50).length,
      p50: at(0.5),
      p99: at(0.99)
    })
  } else if (msg.cmd === 'exit') {
    agent.destroy()
    process.exit(0)
  }
})
process.send({ ready: true })
