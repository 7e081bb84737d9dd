import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from 'xstate'
import { createConnectActor } from '../../machines/connect/connect.facade'
import { createSessionPollingActor } from '../../machines/session-polling/session-polling.facade'
import { sessionSignInput } from '../../machines/sign/sign.actors'
import { createSignActor } from '../../machines/sign/sign.facade'
import {
  startTestServer,
  TEST_PROJECT,
  TEST_PROJECTS,
  type TestServer,
} from '../../server/test/support/server'
import { createBalanceReader } from '../../src/balance'
import { createConnectConfigClient } from '../../src/config'
import { isAppError } from '../../src/errors'
import { GenericWalletSessionClient } from '../../src/session/client'
import { pollGenericSessionResult } from '../../src/session/face/poll'
import type { GenericSessionResult } from '../../src/session/types'
import { buildSignedMessageEnvelope } from '../../src/wire/envelope'
import { ViemTestConnector } from '../machines/support/viem-connector'

describe('against the real server', () => {
  let server: TestServer
  let client: GenericWalletSessionClient
  beforeAll(async () => {
    server = await startTestServer()
    client = new GenericWalletSessionClient(server.baseUrl, server.appKey)
  })
  afterAll(() => server.close())

  it('a complete connect-and-sign session: wallet callbacks, polling machine reaches signed', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const session = await client.createSession('eip155:1', {
      walletSlug: 'metamask',
      intent: 'sign',
    })
    const actor = createSessionPollingActor(client, { session, target: 'signed' })
    const values: string[] = []
    actor.subscribe((s) => values.push(JSON.stringify(s.value)))
    actor.start()

    // The wallet (another device) reports the connection…
    await client.postConnect(
      {
        sessionId: session.sessionId,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: wallet.address,
      },
      { nonce: session.nonce },
    )
    await waitFor(actor, (s) => s.matches('connected'), { timeout: 10_000 })

    // …then signs the server-issued nonce inside the envelope (real EIP-191 signature).
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

    const done = await waitFor(actor, (s) => s.status === 'done', { timeout: 10_000 })
    expect(done.value).toBe('signed')
    expect(done.output).toMatchObject({
      ok: true,
      result: {
        status: 'signed',
        connected: true,
        signed: true,
        walletAddress: wallet.address,
        signature,
      },
    })
    expect(values).toContain('{"connected":"sleeping"}')
    expect(JSON.stringify(actor.getPersistedSnapshot())).not.toContain(session.sessionToken)
  })

  it('a forged signature is refused by the server and the session stays connected', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const impostor = privateKeyToAccount(generatePrivateKey())
    const session = await client.createSession('eip155:1', {
      walletSlug: 'metamask',
      intent: 'sign',
    })
    await client.postConnect(
      {
        sessionId: session.sessionId,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: wallet.address,
      },
      { nonce: session.nonce },
    )
    const timestamp = Date.now()
    const forged = await impostor.signMessage({
      message: buildSignedMessageEnvelope(
        session.sessionId,
        session.nonce,
        wallet.address,
        timestamp,
      ),
    })
    const error = await client
      .postSignMsg(
        { sessionId: session.sessionId, signature: forged, timestamp },
        { nonce: session.nonce },
      )
      .catch((e) => e)
    expect(isAppError(error, 'BACKEND_ERROR')).toBe(true)
    expect(error.status).toBe(422)
    expect(error.backendCode).toBe('SIGNATURE_INVALID')
    expect(error.message).not.toContain(forged)
    const result = await client.getResult(session.sessionId, session.sessionToken)
    expect(result.status).toBe('connected')
  })

  it('desktop flow: connect machine + sign machine with backend verify; pollGenericSessionResult agrees', async () => {
    const connector = new ViemTestConnector(generatePrivateKey())
    const connect = createConnectActor(connector).start()
    connect.send({ type: 'CONNECT' })
    const connected = await waitFor(connect, (s) => s.matches('connected'))
    const address = connected.context.connection!.accounts[0]!

    const session = await client.createSession('eip155:1', { intent: 'sign' })
    const sign = createSignActor(connector, {
      input: sessionSignInput(session, address),
      verifier: { client, sessionToken: session.sessionToken },
    }).start()
    sign.send({ type: 'SIGN' })
    const signed = await waitFor(sign, (s) => s.status === 'done' || s.matches('failed'), {
      timeout: 10_000,
    })
    expect(signed.value).toBe('signed')
    expect(signed.context.verification).toMatchObject({ status: 'signed', walletAddress: address })

    const updates: GenericSessionResult['status'][] = []
    const result = await pollGenericSessionResult(client, session.sessionId, session.sessionToken, {
      onUpdate: (r) => updates.push(r.status),
    })
    expect(result.signature).toBe(signed.output?.signature)
    expect(updates).toEqual(['signed'])
  })

  it('a wallet rejection ends polling with USER_REJECTED', async () => {
    const session = await client.createSession('eip155:1', {
      walletSlug: 'metamask',
      intent: 'sign',
    })
    const promise = pollGenericSessionResult(client, session.sessionId, session.sessionToken, {
      intervalMs: [100, 200],
    })
    await client.postReject(
      { sessionId: session.sessionId, errorCode: 'USER_REJECTED' },
      { nonce: session.nonce },
    )
    const error = await promise.catch((e) => e)
    expect(isAppError(error, 'USER_REJECTED')).toBe(true)
  })

  it('a wrong token ends polling with BACKEND_ERROR 404, as for an unknown session (not retried)', async () => {
    const session = await client.createSession('eip155:1')
    const error = await pollGenericSessionResult(client, session.sessionId, 'x'.repeat(43)).catch(
      (e) => e,
    )
    expect(isAppError(error, 'BACKEND_ERROR')).toBe(true)
    expect([error.status, error.backendCode]).toEqual([404, 'SESSION_NOT_FOUND'])
  })

  it('config and balance clients read the test project', async () => {
    const config = await createConnectConfigClient({
      baseUrl: `${server.baseUrl}/api/v1/`,
      appKey: server.appKey,
    }).fetchConfig()
    expect(config.networks.map((n) => n.networkId)).toEqual(
      expect.arrayContaining(['eip155:1', 'eip155:31337']),
    )
    expect(config.wallets.map((w) => w.walletId)).toEqual(
      expect.arrayContaining(['metamask', 'phantom']),
    )
    const reader = createBalanceReader({ baseUrl: server.baseUrl, appKey: server.appKey })
    const error = await reader
      .getBalance({
        chainId: 'eip155:8453',
        tokenAddress: 'native',
        account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      })
      .catch((e) => e)
    expect(isAppError(error, 'UNSUPPORTED_CHAIN')).toBe(true)
  })
})

describe('rate limiting from the real limiter', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({
      projects: {
        ...TEST_PROJECTS,
        projects: [
          { ...TEST_PROJECT, rateLimits: { session: { limit: 2, windowSeconds: 1 } } },
          ...TEST_PROJECTS.projects.slice(1),
        ],
      },
    })
  })
  afterAll(() => server.close())

  it('the polling machine waits for Retry-After on 429 and still completes', async () => {
    const client = new GenericWalletSessionClient(server.baseUrl, server.appKey)
    const session = await client.createSession('eip155:1', {
      walletSlug: 'metamask',
      intent: 'connect',
    })
    const calls: { at: number; status: number | undefined; retryAfterMs: number | undefined }[] = []
    const recording = {
      createSession: client.createSession.bind(client),
      async getResult(id: string, token: string) {
        try {
          const r = await client.getResult(id, token)
          calls.push({ at: Date.now(), status: 200, retryAfterMs: undefined })
          return r
        } catch (error) {
          const e = error as { status?: number; retryAfterMs?: number }
          calls.push({ at: Date.now(), status: e.status, retryAfterMs: e.retryAfterMs })
          throw error
        }
      },
    }
    const delays: number[] = []
    const actor = createSessionPollingActor(recording, {
      session,
      target: 'connected',
      pollIntervalMs: 100,
    })
    actor.subscribe((s) => {
      if (s.context.lastError?.status === 429 && s.matches({ waiting: 'sleeping' }))
        delays.push(s.context.nextDelayMs)
    })
    actor.start()
    await waitFor(actor, () => calls.some((c) => c.status === 429), { timeout: 10_000 })
    const wallet = privateKeyToAccount(generatePrivateKey())
    await client.postConnect(
      {
        sessionId: session.sessionId,
        walletSlug: 'metamask',
        caip2Chain: 'eip155:1',
        walletAddress: wallet.address,
      },
      { nonce: session.nonce },
    )
    const done = await waitFor(actor, (s) => s.status === 'done', { timeout: 15_000 })
    expect(done.value).toBe('complete')

    const limited = calls.filter((c) => c.status === 429)
    expect(limited.length).toBeGreaterThan(0)
    for (const c of limited) expect(c.retryAfterMs).toBeGreaterThanOrEqual(1000)
    // The machine chose Retry-After (not its 100 ms interval) as the wait…
    expect(delays.length).toBeGreaterThan(0)
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(1000)
    // …and made no lookup before it elapsed.
    calls.forEach((c, i) => {
      const next = calls[i + 1]
      if (c.status === 429 && next)
        expect(next.at - c.at).toBeGreaterThanOrEqual((c.retryAfterMs ?? 0) - 20)
    })
  })
})
