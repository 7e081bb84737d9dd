import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { longPollWaitMs, nextPollDelay } from '../../machines/session-polling/session-polling.logic'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { isAppError } from '../../src/errors'
import { GenericWalletSessionClient } from '../../src/session/client'
import { pollGenericSessionResult } from '../../src/session/face/poll'
import type { GenericSession } from '../../src/session/types'
import { buildSignedMessageEnvelope } from '../../src/wire/envelope'

/** Every request the library made: when it started, its URL, its status. */
interface Sent {
  at: number
  url: string
  status: number
}

/** A fetch that records requests and can hide the long-poll header (an older backend). */
function recordingFetch(sent: Sent[], options: { hideLongPoll?: boolean } = {}): typeof fetch {
  return async (input, init) => {
    const at = performance.now()
    const url = input instanceof Request ? input.url : String(input)
    const response = await fetch(input, init)
    sent.push({ at, url, status: response.status })
    if (!options.hideLongPoll) return response
    const headers = new Headers(response.headers)
    headers.delete('x-long-poll-max-ms')
    return new Response(response.status === 304 ? null : await response.arrayBuffer(), {
      status: response.status,
      headers,
    })
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the session client and the polling machine against the real server', () => {
  let server: TestServer
  let client: GenericWalletSessionClient
  beforeAll(async () => {
    server = await startTestServer()
    client = new GenericWalletSessionClient(server.baseUrl, server.appKey)
  })
  afterAll(() => server.close())

  const wallet = privateKeyToAccount(generatePrivateKey())
  const connect = (session: GenericSession) =>
    client.postConnect(
      {
        sessionId: session.sessionId,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: wallet.address,
      },
      { nonce: session.nonce },
    )
  const sign = async (session: GenericSession) => {
    const timestamp = Date.now()
    const signature = await wallet.signMessage({
      message: buildSignedMessageEnvelope(
        session.sessionId,
        session.nonce,
        wallet.address,
        timestamp,
      ),
    })
    await client.postSignMsg(
      { sessionId: session.sessionId, signature, timestamp },
      { nonce: session.nonce },
    )
  }

  it('callbacks without the nonce are refused like an unknown session; with it they land', async () => {
    const session = await client.createSession('eip155:1', { intent: 'sign' })
    const refused = await client
      .postConnect({
        sessionId: session.sessionId,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: wallet.address,
      })
      .catch((error: unknown) => error)
    expect(isAppError(refused, 'BACKEND_ERROR')).toBe(true)
    expect(refused).toMatchObject({ status: 404, backendCode: 'SESSION_NOT_FOUND' })
    await connect(session)
    expect((await client.getResult(session.sessionId, session.sessionToken)).status).toBe(
      'connected',
    )
  })

  it('watchResult: the tag, 304 when nothing changed, the new state as soon as it changes', async () => {
    const session = await client.createSession('eip155:1', { intent: 'sign' })
    const first = await client.watchResult(session.sessionId, session.sessionToken)
    expect(first).toMatchObject({ changed: true, longPollMaxMs: 25_000 })
    if (!first.changed) throw new Error('unreachable')
    expect(first.result.status).toBe('pending')
    const unchanged = await client.watchResult(session.sessionId, session.sessionToken, {
      etag: first.etag!,
      waitMs: 300,
    })
    expect(unchanged).toEqual({ changed: false, etag: first.etag, longPollMaxMs: 25_000 })

    const started = performance.now()
    const waiting = client.watchResult(session.sessionId, session.sessionToken, {
      etag: first.etag!,
      waitMs: 20_000,
    })
    await sleep(300)
    const callbackAt = performance.now()
    await connect(session)
    const answeredAt = performance.now()
    const changed = await waiting
    const seenAt = performance.now()
    expect(seenAt - started).toBeGreaterThanOrEqual(300)
    expect(seenAt - answeredAt).toBeLessThan(150)
    expect(seenAt - callbackAt).toBeLessThan(1000)
    expect(changed.changed && changed.result.status).toBe('connected')
    expect(changed.etag).not.toBe(first.etag)
  })

  it('watchResult aborted by its signal rejects at once', async () => {
    const session = await client.createSession('eip155:1')
    const first = await client.watchResult(session.sessionId, session.sessionToken)
    const controller = new AbortController()
    const started = performance.now()
    const waiting = client
      .watchResult(session.sessionId, session.sessionToken, {
        etag: first.etag!,
        waitMs: 20_000,
        signal: controller.signal,
      })
      .catch((error: unknown) => error)
    await sleep(100)
    controller.abort()
    expect(isAppError(await waiting, 'BACKEND_ERROR')).toBe(true)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('the polling machine long-polls: signed seen within ms of the callback, one lookup per change', async () => {
    const sent: Sent[] = []
    const recorded = new GenericWalletSessionClient(server.baseUrl, server.appKey, {
      fetchImpl: recordingFetch(sent),
    })
    const session = await client.createSession('eip155:1', { intent: 'sign' })
    const interval: [number, number] = [400, 500]
    let signedAt = 0
    const done = pollGenericSessionResult(recorded, session.sessionId, session.sessionToken, {
      intervalMs: interval,
    }).then((result) => {
      signedAt = performance.now()
      return result
    })
    await sleep(1_000)
    await connect(session)
    await sleep(700)
    const callbackAt = performance.now()
    await sign(session)
    const answeredAt = performance.now()
    const result = await done
    expect(result.status).toBe('signed')
    expect(signedAt - answeredAt).toBeLessThan(150)
    expect(signedAt - callbackAt).toBeLessThan(1000)

    // The first lookup is plain; after it, every lookup waits at the server (waitMs) until the
    // next change: one for `connected`, one for `signed`. Polling 1.7 s at 400–500 ms makes 4–5.
    expect(sent.map((request) => [request.url.includes('waitMs='), request.status])).toEqual([
      [false, 200],
      [true, 200],
      [true, 200],
    ])
  })

  it('without the long-poll header (an older backend) the machine polls at its interval', async () => {
    const sent: Sent[] = []
    const recorded = new GenericWalletSessionClient(server.baseUrl, server.appKey, {
      fetchImpl: recordingFetch(sent, { hideLongPoll: true }),
    })
    const session = await client.createSession('eip155:1', { intent: 'sign' })
    const interval: [number, number] = [300, 350]
    const done = pollGenericSessionResult(recorded, session.sessionId, session.sessionToken, {
      intervalMs: interval,
    })
    await sleep(1_000)
    await connect(session)
    await sign(session)
    expect((await done).status).toBe('signed')
    expect(sent.length).toBeGreaterThanOrEqual(3)
    expect(sent.every((request) => !request.url.includes('waitMs='))).toBe(true)
    for (let i = 1; i < sent.length; i++) {
      expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(interval[0] - 20)
    }
  })
})

describe('opting out', () => {
  it('pollGenericSessionResult({ longPoll: false }) polls at its interval against a long-polling backend', async () => {
    const server = await startTestServer()
    try {
      const sent: Sent[] = []
      const client = new GenericWalletSessionClient(server.baseUrl, server.appKey, {
        fetchImpl: recordingFetch(sent),
      })
      const session = await client.createSession('eip155:1', { intent: 'connect' })
      const done = pollGenericSessionResult(client, session.sessionId, session.sessionToken, {
        intervalMs: 200,
        until: 'connected',
        longPoll: false,
      })
      await sleep(700)
      await client.postConnect(
        {
          sessionId: session.sessionId,
          walletSlug: 'metamask',
          caip2Chain: 'eip155:1',
          walletAddress: privateKeyToAccount(generatePrivateKey()).address,
        },
        { nonce: session.nonce },
      )
      expect((await done).status).toBe('connected')
      const lookups = sent.filter((request) => request.url.includes('/result'))
      expect(lookups.length).toBeGreaterThanOrEqual(3)
      expect(lookups.every((request) => !request.url.includes('waitMs='))).toBe(true)
    } finally {
      await server.close()
    }
  })
})

describe('nextPollDelay: the wait the machine takes after a lookup', () => {
  const interval: [number, number] = [1500, 2000]
  it('news from a long-polling backend: none; a full wait: none; a wait cut short: the rest of the interval', () => {
    expect(nextPollDelay(interval, { jitter: 0.5, heldMs: 3, pushed: true })).toBe(0)
    expect(nextPollDelay(interval, { jitter: 0.5, heldMs: 25_000 })).toBe(0)
    // A backend restarting answers 304 at once: no tight loop, the interval applies.
    expect(nextPollDelay(interval, { jitter: 0.5, heldMs: 5 })).toBe(1745)
    expect(nextPollDelay(interval, { jitter: 0 })).toBe(1500)
  })

  it('longPollWaitMs: the offer, capped before the deadline; a plain lookup when under 1 s is left', () => {
    expect(longPollWaitMs(25_000, undefined, 0)).toBe(25_000)
    expect(longPollWaitMs(25_000, 10_000, 0)).toBe(9_750)
    expect(longPollWaitMs(25_000, 1_100, 0)).toBe(0)
  })
})
