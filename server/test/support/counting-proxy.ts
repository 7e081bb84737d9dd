import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback HTTP proxy in front of a real JSON-RPC node (anvil, the Solana double) that counts
 * what reaches the node: every request's method, and the most requests in flight at once (each
 * in-flight request holds one upstream connection). `holdMs` keeps every answer back that long, so
 * concurrency shows as it would against a node far away.
 */
export interface CountingProxy {
  url: string
  methods: string[]
  maxInFlight: number
  holdMs: number
  reset(): void
  close(): Promise<void>
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  let inFlight = 0
  const proxy: CountingProxy = {
    url: '',
    methods: [],
    maxInFlight: 0,
    holdMs: 0,
    reset() {
      proxy.methods.length = 0
      proxy.maxInFlight = 0
    },
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
  const server = createServer(async (request, response) => {
    inFlight++
    proxy.maxInFlight = Math.max(proxy.maxInFlight, inFlight)
    // Answered, or given up by the client (its connection closed): no longer in flight.
    response.once('close', () => inFlight--)
    try {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const body = Buffer.concat(chunks).toString('utf8')
      const parsed = JSON.parse(body) as { method: string } | { method: string }[]
      for (const one of Array.isArray(parsed) ? parsed : [parsed]) proxy.methods.push(one.method)
      if (proxy.holdMs > 0) await new Promise((resolve) => setTimeout(resolve, proxy.holdMs))
      const answer = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      response.writeHead(answer.status, { 'content-type': 'application/json' })
      response.end(Buffer.from(await answer.arrayBuffer()))
    } catch {
      if (!response.headersSent) response.writeHead(502)
      response.end()
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return proxy
}
