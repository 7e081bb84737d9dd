import { getEventListeners } from 'node:events'
import { bytesToHex, randomBytes } from '@noble/hashes/utils.js'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AppError, isAppError } from '../../src/errors'
import {
  createRelayClient,
  DEFAULT_RELAY_BACKOFF,
  type RelayClientOptions,
  type RelayStatusChange,
  reconnectDelay,
  relayMessageId,
} from '../../src/relay/client'
import { createRelayDouble, type RelayDouble } from './support/relay-double'

const RELAY_URL = 'ws://127.0.0.1:9/api/v1/connect/relay'
const topic = () => bytesToHex(randomBytes(32))

let relay: RelayDouble
let tokens: number
let clients: Array<ReturnType<typeof createRelayClient>>

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 1_800_000_000_000 })
  relay = createRelayDouble()
  tokens = 0
  clients = []
})
afterEach(() => {
  for (const client of clients) client.close()
  vi.useRealTimers()
})

function client(overrides: Partial<RelayClientOptions> = {}) {
  const statuses: RelayStatusChange[] = []
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
  c.onStatus((change) => statuses.push(change))
  const messages: string[] = []
  c.onMessage((m) => messages.push(m.message))
  clients.push(c)
  return { c, statuses, messages }
}

const settle = () => vi.advanceTimersByTimeAsync(0)

/** Two clients on one topic, then the relay restarts under `a`'s socket and refuses it for now. */
async function peersWhileAIsAway() {
  const t = topic()
  const a = client()
  const b = client()
  await Promise.all([a.c.subscribe(t), b.c.subscribe(t), settle()])
  relay.refuse = true
  relay.sockets[0]?.close(1001, 'going away')
  await settle()
  expect(a.c.status).toBe('reconnecting')
  return { t, a, b }
}

describe('reconnect delay', () => {
  it('doubles from 500 ms to the 30 s cap with ±25 % jitter', () => {
    const b = DEFAULT_RELAY_BACKOFF
    expect(reconnectDelay(1, 0.5, b)).toBe(500)
    expect(reconnectDelay(2, 0.5, b)).toBe(1000)
    expect(reconnectDelay(3, 0.5, b)).toBe(2000)
    expect(reconnectDelay(20, 0.5, b)).toBe(30_000)
    expect(reconnectDelay(1, 0, b)).toBe(375)
    expect(reconnectDelay(1, 0.999999, b)).toBe(625)
    expect(reconnectDelay(1, Number.NaN, b)).toBe(500)
  })
})

describe('relay client', () => {
  it('fetches a token, connects with it in the URL and goes online', async () => {
    const { c, statuses } = client()
    expect(c.status).toBe('idle')
    const connected = c.connect()
    expect(c.status).toBe('connecting')
    await settle()
    await connected
    expect(c.status).toBe('online')
    expect(relay.sockets[0]?.url).toBe(`${RELAY_URL}?token=token-1-xxxxxxxxxxxx`)
    expect(statuses.map((s) => s.status)).toEqual(['connecting', 'online'])
  })

  it('delivers a peer message once, acks every push, and drops duplicates and its own messages', async () => {
    const t = topic()
    const a = client()
    const b = client()
    await Promise.all([a.c.subscribe(t), b.c.subscribe(t), settle()])
    await Promise.all([a.c.publish(t, 'AAAA', { ttl: 300, tag: 1 }), settle()])
    await settle()
    expect(b.messages).toEqual(['AAAA'])
    expect(a.messages).toEqual([]) // not echoed
    relay.inject(t, 'AAAA') // the same message again (e.g. the relay re-sends it)
    await settle()
    expect(b.messages).toEqual(['AAAA'])
    expect(a.messages).toEqual([]) // its own message, handed back: dropped
    const acks = relay.frames.filter((f) => f.socket === 1 && f.frame.result === true)
    expect(acks.length).toBe(2) // b acked both pushes, duplicate included
  })

  it('a message published before the subscription arrives from the mailbox', async () => {
    const t = topic()
    const a = client()
    await Promise.all([a.c.connect(), settle()])
    await Promise.all([a.c.publish(t, 'BBBB', { ttl: 300, tag: 1 }), settle()])
    const b = client()
    await Promise.all([b.c.subscribe(t), settle()])
    await settle()
    expect(b.messages).toEqual(['BBBB'])
  })

  it('a topic subscribed while the connection is being set up is subscribed too', async () => {
    const t1 = topic()
    const t2 = topic()
    relay.inject(t1, 'PROPOSAL') // waiting in the mailbox
    const a = client()
    let second: Promise<void> | undefined
    a.c.onMessage((m) => {
      // Answering a message that arrived mid-setup (as a wallet approving a proposal does).
      if (m.message === 'PROPOSAL') second = a.c.subscribe(t2)
    })
    await Promise.all([a.c.subscribe(t1), settle()])
    await settle()
    await second
    expect(relay.sockets[0]?.subscriptions.has(t2)).toBe(true)
    relay.inject(t2, 'REQUEST')
    await settle()
    expect(a.messages).toEqual(['PROPOSAL', 'REQUEST'])
  })

  it('reconnects with backoff after the relay goes away, resubscribes, fetches, and sends what waited', async () => {
    const { t, a, b } = await peersWhileAIsAway()
    expect(a.statuses.at(-1)).toMatchObject({ status: 'reconnecting', attempt: 1 })

    // While a is away: b publishes, a publishes (queued).
    await Promise.all([b.c.publish(t, 'FROM-B', { ttl: 300, tag: 1 }), settle()])
    let aPublished = false
    void a.c.publish(t, 'FROM-A', { ttl: 300, tag: 1 }).then(
      () => {
        aPublished = true
      },
      () => undefined,
    )
    await vi.advanceTimersByTimeAsync(499)
    expect(relay.sockets.length).toBe(2) // no attempt before the 500 ms backoff
    await vi.advanceTimersByTimeAsync(1)
    expect(relay.sockets.length).toBe(3) // attempt 1, refused
    expect(a.statuses.at(-1)).toMatchObject({ status: 'reconnecting', attempt: 2 })
    relay.refuse = false
    await vi.advanceTimersByTimeAsync(999)
    expect(relay.sockets.length).toBe(3)
    await vi.advanceTimersByTimeAsync(1)
    await settle()
    expect(a.c.status).toBe('online')
    expect(aPublished).toBe(true)
    expect(a.messages).toEqual(['FROM-B'])
    await settle()
    expect(b.messages).toEqual(['FROM-A'])
    const resubscribed = relay.frames
      .filter((f) => f.socket === 3 && f.frame.method !== undefined)
      .map((f) => f.frame.method)
    expect(resubscribed.slice(0, 3)).toEqual(['scr_subscribe', 'scr_fetchMessages', 'scr_publish'])
    // A close after open keeps the still-valid token; an attempt refused before open drops it.
    expect([0, 2, 3].map((i) => relay.sockets[i]?.url.split('token=')[1])).toEqual([
      'token-1-xxxxxxxxxxxx',
      'token-1-xxxxxxxxxxxx',
      'token-3-xxxxxxxxxxxx',
    ])
  })

  it('a message given up while it waits for the connection is never sent; the next one is', async () => {
    const { t, a, b } = await peersWhileAIsAway()

    const abandon = new AbortController()
    const givenUp = a.c
      .publish(t, 'GIVEN-UP', { ttl: 300, tag: 1, signal: abandon.signal })
      .catch((error: unknown) => error)
    const sent = a.c.publish(t, 'SENT', { ttl: 300, tag: 1 })
    abandon.abort()
    expect(await givenUp).toMatchObject({ code: 'ABORTED' })
    // Already given up: not even queued.
    const late = await a.c
      .publish(t, 'LATE', { ttl: 300, tag: 1, signal: abandon.signal })
      .catch((error: unknown) => error)
    expect(late).toMatchObject({ code: 'ABORTED' })

    relay.refuse = false
    await vi.advanceTimersByTimeAsync(1_500)
    await settle()
    expect(a.c.status).toBe('online')
    await sent
    await settle()
    expect(b.messages).toEqual(['SENT'])
    const published = relay.frames
      .filter((f) => f.frame.method === 'scr_publish')
      .map((f) => (f.frame.params as { message: string }).message)
    expect(published).toEqual(['SENT'])
  })

  it('a long-lived signal keeps no listener of a message once it is sent, queued or not', async () => {
    const t = topic()
    const a = client()
    const b = client()
    await Promise.all([a.c.subscribe(t), b.c.subscribe(t), settle()])
    const session = new AbortController()
    const online = Array.from({ length: 12 }, (_, i) =>
      a.c.publish(t, `ONLINE-${i}`, { ttl: 300, tag: 1, signal: session.signal }),
    )
    await Promise.all([...online, settle()])
    expect(getEventListeners(session.signal, 'abort')).toEqual([])

    relay.refuse = true
    relay.sockets[0]?.close(1001, 'going away')
    await settle()
    const queued = a.c.publish(t, 'QUEUED', { ttl: 300, tag: 1, signal: session.signal })
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(1)
    relay.refuse = false
    await vi.advanceTimersByTimeAsync(1_500)
    await Promise.all([queued, settle()])
    expect(getEventListeners(session.signal, 'abort')).toEqual([])
    expect(b.messages.at(-1)).toBe('QUEUED')
  })

  it('goes offline after the attempt budget, rejects waiting work, and reconnect() starts over', async () => {
    const t = topic()
    const a = client({ backoff: { maxAttempts: 3 } })
    await Promise.all([a.c.subscribe(t), settle()])
    relay.refuse = true
    relay.closeAll(1006)
    await settle()
    const queued = a.c.publish(t, 'LATE', { ttl: 300, tag: 1 })
    const failed = queued.catch((error) => error)
    await vi.advanceTimersByTimeAsync(500 + 1000 + 2000)
    expect(a.c.status).toBe('offline')
    expect(isAppError(await failed, 'RELAY_ERROR')).toBe(true)
    await expect(a.c.publish(t, 'NOPE', { ttl: 300, tag: 1 })).rejects.toMatchObject({
      code: 'RELAY_ERROR',
    })
    expect(a.statuses.map((s) => s.status)).toEqual([
      'connecting',
      'online',
      'reconnecting',
      'reconnecting',
      'reconnecting',
      'offline',
    ])
    relay.refuse = false
    a.c.reconnect()
    await settle()
    expect(a.c.status).toBe('online')
  })

  it('close 4001: a fresh token and an immediate reconnect', async () => {
    const t = topic()
    const a = client()
    await Promise.all([a.c.subscribe(t), settle()])
    relay.closeAll(4001, 'token expired')
    await settle()
    expect(a.c.status).toBe('online')
    expect(relay.sockets[1]?.url).toContain('token=token-2-')
  })

  it('refreshes the token before it expires, without waiting for 4001', async () => {
    const a = client({
      getToken: async () => ({
        token: `token-${++tokens}-xxxxxxxxxxxx`,
        expiresAt: Date.now() + 60_000,
      }),
    })
    await Promise.all([a.c.connect(), settle()])
    await vi.advanceTimersByTimeAsync(54_999)
    expect(relay.sockets.length).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    await settle()
    expect(relay.sockets.length).toBe(2)
    expect(relay.sockets[1]?.url).toContain('token=token-2-')
    expect(a.c.status).toBe('online')
  })

  it('a refused token (401) is final: offline, and connect() rejects with that error', async () => {
    const a = client({
      getToken: async () => {
        throw new AppError('BACKEND_ERROR', 'HTTP 401', {
          status: 401,
          backendCode: 'INVALID_APP_KEY',
        })
      },
    })
    const connected = a.c.connect().catch((error) => error)
    await settle()
    expect(await connected).toMatchObject({ code: 'BACKEND_ERROR', status: 401 })
    expect(a.c.status).toBe('offline')
    expect(relay.sockets.length).toBe(0)
  })

  it('a token source that is down (503) is retried with backoff', async () => {
    let calls = 0
    const a = client({
      getToken: async () => {
        calls++
        if (calls < 3) throw new AppError('BACKEND_ERROR', 'HTTP 503', { status: 503 })
        return { token: 'token-ok-xxxxxxxxxxxx', expiresAt: Date.now() + 3_600_000 }
      },
    })
    void a.c.connect()
    await vi.advanceTimersByTimeAsync(500 + 1000)
    await settle()
    expect(calls).toBe(3)
    expect(a.c.status).toBe('online')
  })

  it('keepalive: a relay that stops answering scr_ping is dropped and reconnected', async () => {
    const a = client({ keepaliveMs: 25_000, requestTimeoutMs: 10_000 })
    await Promise.all([a.c.connect(), settle()])
    await vi.advanceTimersByTimeAsync(25_000)
    expect(relay.frames.filter((f) => f.frame.method === 'scr_ping').length).toBe(1)
    relay.silentPings = true
    await vi.advanceTimersByTimeAsync(25_000 + 10_000)
    expect(a.c.status).toBe('reconnecting')
    relay.silentPings = false
    await vi.advanceTimersByTimeAsync(500)
    await settle()
    expect(a.c.status).toBe('online')
    expect(relay.sockets.length).toBe(2)
  })

  it('a relay error on publish rejects with RELAY_ERROR naming it', async () => {
    const t = topic()
    const a = client()
    await Promise.all([a.c.connect(), settle()])
    relay.publishError = -32002
    const result = a.c.publish(t, 'CCCC', { ttl: 300, tag: 1 }).catch((error) => error)
    await settle()
    expect(await result).toMatchObject({ code: 'RELAY_ERROR', backendCode: 'MAILBOX_FULL' })
    expect(a.c.status).toBe('online')
  })

  it('ignores malformed frames and unknown answers without crashing', async () => {
    const t = topic()
    const a = client()
    await Promise.all([a.c.subscribe(t), settle()])
    const socket = relay.sockets[0]!
    for (const data of ['nope', '{}', '[1,2]', '{"jsonrpc":"2.0","id":999999,"result":1}', 42]) {
      socket.onmessage?.({ data })
    }
    socket.onmessage?.({
      data: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'scr_subscription',
        params: {
          id: '1',
          data: { topic: 'not-a-topic', message: 'x', messageId: 'y', publishedAt: 1, tag: 1 },
        },
      }),
    })
    relay.inject(t, 'DDDD')
    await settle()
    expect(a.messages).toEqual(['DDDD'])
    expect(a.c.status).toBe('online')
  })

  it('computes messageId as hex SHA-256 of the message, not trusting the relay', async () => {
    expect(relayMessageId('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })

  it('close(): pending work rejects with ABORTED and the status is offline', async () => {
    const t = topic()
    const a = client()
    relay.refuse = true
    const waiting = a.c.subscribe(t).catch((error) => error)
    await settle()
    a.c.close()
    expect(await waiting).toMatchObject({ code: 'ABORTED' })
    expect(a.c.status).toBe('offline')
    await expect(a.c.connect()).rejects.toMatchObject({ code: 'RELAY_ERROR' })
  })

  it('refuses a bad relay URL, no token source, no WebSocket', () => {
    expect(() =>
      createRelayClient({
        relayUrl: 'https://x',
        getToken: async () => ({ token: 't', expiresAt: 1 }),
        WebSocket: relay.WebSocket,
      }),
    ).toThrow(/ws:\/\//)
    expect(() =>
      createRelayClient({ relayUrl: RELAY_URL, WebSocket: relay.WebSocket } as never),
    ).toThrow(/getToken/)
    vi.stubGlobal('WebSocket', undefined)
    try {
      expect(() =>
        createRelayClient({
          relayUrl: RELAY_URL,
          getToken: async () => ({ token: 't', expiresAt: 1 }),
        }),
      ).toThrow(/WebSocket/)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
