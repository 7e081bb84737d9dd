import { bytesToHex, randomBytes } from '@noble/hashes/utils.js'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AppError } from '../../src/errors'
import { createRelayClient, type RelayClientOptions } from '../../src/relay/client'
import { createRelayDouble, type RelayDouble } from './support/relay-double'

// Fault twins of the relay client (a regression file per fault): after each fault, the next call
// works — no state left behind in the chart, the requests, the subscriber or the publisher.

const RELAY_URL = 'ws://127.0.0.1:9/api/v1/connect/relay'
const topic = () => bytesToHex(randomBytes(32))

let relay: RelayDouble
let clients: Array<ReturnType<typeof createRelayClient>>
let tokens: number

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 1_800_000_000_000 })
  relay = createRelayDouble()
  clients = []
  tokens = 0
})
afterEach(() => {
  for (const client of clients) client.close()
  vi.useRealTimers()
})

const settle = () => vi.advanceTimersByTimeAsync(0)

function client(overrides: Partial<RelayClientOptions> = {}) {
  const c = createRelayClient({
    relayUrl: RELAY_URL,
    WebSocket: relay.WebSocket,
    random: () => 0.5,
    getToken: async () => ({
      token: `token-${++tokens}-xxxxxxxxxxxx`,
      expiresAt: Date.now() + 3_600_000,
    }),
    ...overrides,
  })
  const messages: string[] = []
  c.onMessage((m) => messages.push(m.message))
  clients.push(c)
  return { c, messages }
}

/** A peer publishes on `t` and `to` receives it: the connection works end to end. */
async function roundTrip(to: ReturnType<typeof client>, t: string, message: string) {
  const peer = client()
  await Promise.all([peer.c.publish(t, message, { ttl: 300, tag: 1 }), settle()])
  await settle()
  expect(to.messages).toContain(message)
  await Promise.all([to.c.publish(t, `${message}-BACK`, { ttl: 300, tag: 1 }), settle()])
}

describe('relay client faults', () => {
  it('error: socket dropped — reconnects with backoff; the next publish and delivery work', async () => {
    const t = topic()
    const a = client()
    await Promise.all([a.c.subscribe(t), settle()])
    relay.closeAll(1006)
    await settle()
    expect(a.c.status).toBe('reconnecting')
    await vi.advanceTimersByTimeAsync(500)
    await settle()
    expect(a.c.status).toBe('online')
    await roundTrip(a, t, 'AFTER-DROP')
  })

  it('error: relay refuses the token — offline with that error; after reconnect() the next call works', async () => {
    let refuse = true
    const a = client({
      getToken: async () => {
        if (refuse) {
          throw new AppError('BACKEND_ERROR', 'HTTP 401', {
            status: 401,
            backendCode: 'INVALID_APP_KEY',
          })
        }
        return { token: `token-${++tokens}-xxxxxxxxxxxx`, expiresAt: Date.now() + 3_600_000 }
      },
    })
    const t = topic()
    const refused = a.c.subscribe(t).catch((error) => error)
    await settle()
    expect(await refused).toMatchObject({ code: 'BACKEND_ERROR', status: 401 })
    expect(a.c.status).toBe('offline')
    refuse = false
    a.c.reconnect()
    await settle()
    expect(a.c.status).toBe('online')
    await Promise.all([a.c.subscribe(t), settle()])
    await roundTrip(a, t, 'AFTER-REFUSAL')
  })

  it('error: relay answers garbage — frames dropped, a garbled answer times out; the next call works', async () => {
    const t = topic()
    const a = client({ requestTimeoutMs: 5_000 })
    await Promise.all([a.c.subscribe(t), settle()])
    const socket = relay.sockets[0]!
    const send = socket.send.bind(socket)
    // The relay garbles its answer to the next request.
    socket.send = (data: string) => {
      socket.send = send
      const { id } = JSON.parse(data) as { id: number }
      void Promise.resolve().then(() => {
        socket.onmessage?.({ data: `{"jsonrpc":"2.0","id":${id},"result"` })
        socket.onmessage?.({ data: JSON.stringify({ jsonrpc: '1.0', id, result: true }) })
        socket.onmessage?.({ data: new Uint8Array([1, 2, 3]) })
      })
    }
    const garbled = a.c.publish(t, 'GARBLED', { ttl: 300, tag: 1 }).catch((error) => error)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(await garbled).toMatchObject({ code: 'RELAY_ERROR' })
    expect(a.c.status).toBe('online')
    await roundTrip(a, t, 'AFTER-GARBAGE')
  })

  it('error: hang — a relay that stops answering is dropped by the keepalive; the next call works', async () => {
    const t = topic()
    const a = client({ keepaliveMs: 25_000, requestTimeoutMs: 10_000 })
    await Promise.all([a.c.subscribe(t), settle()])
    relay.silentPings = true
    const socket = relay.sockets[0]!
    socket.send = () => undefined // the link is dead: nothing arrives any more
    const hung = a.c.publish(t, 'HUNG', { ttl: 300, tag: 1 }).catch((error) => error)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await hung).toMatchObject({ code: 'RELAY_ERROR' })
    await vi.advanceTimersByTimeAsync(25_000)
    expect(a.c.status).toBe('reconnecting')
    relay.silentPings = false
    await vi.advanceTimersByTimeAsync(500)
    await settle()
    expect(a.c.status).toBe('online')
    expect(relay.sockets.length).toBe(2)
    await roundTrip(a, t, 'AFTER-HANG')
  })
})
