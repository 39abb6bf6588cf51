import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * One round trip through Node's HTTP client to a server of its own on the loopback address: a
 * POST, then a streamed event-stream answer read through web streams, as a provider's reply is.
 * Node's client (undici) loads on first use and compiles its HTTP parser from WebAssembly on the
 * first answer it reads: 30–60 ms in pieces of up to ~35 ms, which otherwise fall inside the first
 * reply after opening (the door bench's first send). Nothing leaves the machine; the server
 * answers this one request and closes.
 */
export async function warmHttpClient(timeoutMs = 5000): Promise<void> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' })
      res.write('data: {"warm":1}\n\n')
      res.end('data: [DONE]\n\n')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  try {
    const { port } = server.address() as AddressInfo
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"warm":true}',
      signal: AbortSignal.timeout(timeoutMs)
    })
    if (!res.body) return
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    while (!(await reader.read()).done) {
      // Read to the end: the parser runs on every chunk.
    }
  } finally {
    // The client keeps its connection alive: close it with the server.
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}
