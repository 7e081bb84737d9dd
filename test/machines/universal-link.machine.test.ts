import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, toPromise } from 'xstate'
import { createMemoryTokenVault } from '../../machines/session-polling/session-polling.actors'
import { createUniversalLinkActors } from '../../machines/universal-link/universal-link.actors'
import { universalLinkMachine } from '../../machines/universal-link/universal-link.machine'
import type { OpenWalletInput } from '../../machines/universal-link/universal-link.types'
import { RESUMABLE_TAG } from '../../machines/universal-link/universal-link.types'
import { AppError } from '../../src/errors'
import type { GenericSession, GenericSessionResult } from '../../src/session/types'

const input = {
  walletId: 'phantom',
  chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  pollIntervalMs: 1,
}
// Wallet answers are checked (issue 27): a 32-byte key and 64-byte signatures, base58.
const ADDRESS = base58.encode(new Uint8Array(32).fill(7))
/** A distinct 64-byte base58 signature per name. */
const sig = (name: string) =>
  base58.encode(Uint8Array.from({ length: 64 }, (_, i) => name.charCodeAt(i % name.length)))

function result(
  sessionId: string,
  status: GenericSessionResult['status'],
  extra: Partial<GenericSessionResult> = {},
): GenericSessionResult {
  const connected = status === 'connected' || status === 'signed'
  return {
    sessionId,
    status,
    connected,
    signed: status === 'signed',
    walletAddress: connected ? ADDRESS : null,
    signature: status === 'signed' ? sig(`sig-of-${sessionId}`) : null,
    txSignature: null,
    errorCode: status === 'rejected' ? 'USER_REJECTED' : null,
    ...extra,
  }
}

/**
 * A scripted backend: sessions are created with real-looking tokens; each session's result is what
 * the test sets (`answer`), the wallet's side of the round trip. The wallet is opened by an
 * `openWallet` actor that records what it was asked (`opened`); from the `holdOpenFrom`-th
 * opening on it never ends, and with `failOpen` every opening fails.
 */
function scriptedBackend(
  options: {
    failCreate?: boolean
    failCreateFrom?: number
    holdCreateFrom?: number
    holdOpenFrom?: number
    failOpen?: boolean
  } = {},
) {
  const opened: OpenWalletInput[] = []
  const results = new Map<string, GenericSessionResult | AppError>()
  const tokensSeen: string[] = []
  let n = 0
  const client = {
    async createSession(): Promise<GenericSession> {
      if (options.failCreate)
        throw new AppError('BACKEND_ERROR', 'The backend refused the request.')
      if (options.failCreateFrom !== undefined && n + 1 >= options.failCreateFrom)
        throw new AppError('BACKEND_ERROR', 'The backend refused the request.')
      if (options.holdCreateFrom !== undefined && n + 1 >= options.holdCreateFrom)
        await new Promise(() => {})
      n += 1
      const sessionId = `sess_${n}`
      results.set(sessionId, result(sessionId, 'pending'))
      return {
        sessionId,
        nonce: `nonce-${n}`,
        sessionToken: `token-secret-${n}-xxxxxxxxxxxxxxxx`,
        expiresAt: Date.now() + 600_000,
      }
    },
    async getResult(sessionId: string, token: string): Promise<GenericSessionResult> {
      tokensSeen.push(token)
      const answer = results.get(sessionId)
      if (answer instanceof AppError) throw answer
      if (!answer) throw new AppError('BACKEND_ERROR', 'HTTP 404', { status: 404 })
      return answer
    },
  }
  const vault = createMemoryTokenVault()
  const machine = universalLinkMachine.provide({
    actors: {
      ...createUniversalLinkActors(client, { intent: 'transaction', vault }),
      openWallet: fromPromise<void, OpenWalletInput>(async ({ input }) => {
        opened.push(input)
        if (options.failOpen) throw new Error('the link cannot be opened')
        if (options.holdOpenFrom !== undefined && opened.length >= options.holdOpenFrom)
          await new Promise(() => {})
      }),
    },
  })
  return {
    machine,
    opened,
    vault,
    tokensSeen,
    answer: (sessionId: string, value: GenericSessionResult | AppError) =>
      results.set(sessionId, value),
  }
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 2))
  expect(condition()).toBe(true)
}

function start(backend: ReturnType<typeof scriptedBackend>) {
  const actor = createActor(backend.machine, { input })
  actor.start()
  return { actor, opened: backend.opened }
}

describe('universal-link machine (with the session-polling machine as its child)', () => {
  it('creates a session, opens the wallet once, polls as a child machine, connects', async () => {
    const backend = scriptedBackend()
    const { actor, opened } = start(backend)
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    expect(opened).toEqual([
      {
        walletId: 'phantom',
        method: 'connect',
        session: { sessionId: 'sess_1', nonce: 'nonce-1', expiresAt: expect.any(Number) },
        chainId: input.chainId,
        payload: null,
      },
    ])
    expect(actor.getSnapshot().hasTag(RESUMABLE_TAG)).toBe(true)
    // The poller is a child machine of the flow (id `poll`).
    const poller = actor.getSnapshot().children.poll
    expect(poller?.getSnapshot()).toMatchObject({ value: { waiting: expect.any(String) } })
    // The token is in the vault, never in the context or the persisted snapshot.
    expect(backend.vault.get('sess_1')).toBe('token-secret-1-xxxxxxxxxxxxxxxx')
    expect(JSON.stringify(actor.getPersistedSnapshot())).not.toContain('token-secret')

    backend.answer('sess_1', result('sess_1', 'connected'))
    await until(() => actor.getSnapshot().matches('connected'))
    expect(actor.getSnapshot().context.walletAddress).toBe(ADDRESS)
    expect(backend.tokensSeen.every((t) => t === 'token-secret-1-xxxxxxxxxxxxxxxx')).toBe(true)
  })

  it('signs, returns to connected, and a second signature renews the session', async () => {
    const backend = scriptedBackend()
    const { actor, opened } = start(backend)
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    backend.answer('sess_1', result('sess_1', 'connected'))
    await until(() => actor.getSnapshot().matches('connected'))

    actor.send({ type: 'SIGN_MESSAGE' })
    expect(actor.getSnapshot().value).toBe('openingWalletToSign')
    await until(() => actor.getSnapshot().matches('awaitingSignature'))
    expect(opened[1]?.method).toBe('signMessage')
    backend.answer('sess_1', result('sess_1', 'signed'))
    await until(() => actor.getSnapshot().matches('connected'))
    expect(actor.getSnapshot().context).toMatchObject({
      signature: sig('sig-of-sess_1'),
      signatures: 1,
    })

    actor.send({ type: 'SIGN_MESSAGE' })
    await until(() => actor.getSnapshot().matches('reconnecting'))
    expect(actor.getSnapshot().context.signature).toBeNull()
    expect(opened[2]).toMatchObject({ method: 'connect', session: { sessionId: 'sess_2' } })
    backend.answer('sess_2', result('sess_2', 'connected'))
    await until(() => actor.getSnapshot().matches('awaitingSignature'))
    expect(opened[3]).toMatchObject({ method: 'signMessage', session: { sessionId: 'sess_2' } })
    backend.answer('sess_2', result('sess_2', 'signed'))
    await until(() => actor.getSnapshot().matches('connected'))
    expect(actor.getSnapshot().context).toMatchObject({
      signature: sig('sig-of-sess_2'),
      signatures: 2,
    })
  })

  it('a transaction request carries its payload and waits for the tx signature', async () => {
    const backend = scriptedBackend()
    const { actor, opened } = start(backend)
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    backend.answer('sess_1', result('sess_1', 'connected'))
    await until(() => actor.getSnapshot().matches('connected'))
    actor.send({ type: 'SIGN_TRANSACTION', payload: 'AQID' })
    expect(opened[1]).toMatchObject({ method: 'signTransaction', payload: 'AQID' })
    backend.answer('sess_1', result('sess_1', 'connected', { txSignature: sig('txsig') }))
    await until(() => actor.getSnapshot().context.txSignature === sig('txsig'))
    expect(actor.getSnapshot().value).toBe('connected')
  })

  it.each([
    ['rejected', 'rejected', 'USER_REJECTED'],
    ['failed', 'failed', 'SESSION_FAILED'],
    ['expired', 'expired', 'SESSION_EXPIRED'],
  ] as const)('a session %s ends the flow in %s (%s)', async (status, final, code) => {
    const backend = scriptedBackend()
    const { actor } = start(backend)
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    backend.answer('sess_1', result('sess_1', status))
    const output = await toPromise(actor)
    expect(output.status).toBe(final)
    expect(output.error?.code).toBe(code)
  })

  it('a non-retryable backend answer ends in failed', async () => {
    const backend = scriptedBackend()
    const { actor } = start(backend)
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    backend.answer('sess_1', new AppError('BACKEND_ERROR', 'HTTP 401', { status: 401 }))
    const output = await toPromise(actor)
    expect(output.status).toBe('failed')
    expect(output.error?.code).toBe('BACKEND_ERROR')
  })

  it('a failed session creation ends in failed with a JSON-safe error', async () => {
    const backend = scriptedBackend({ failCreate: true })
    const output = await toPromise(createActor(backend.machine, { input }).start())
    expect(output.status).toBe('failed')
    expect(JSON.parse(JSON.stringify(output.error))).toEqual({
      code: 'BACKEND_ERROR',
      message: 'The backend refused the request.',
    })
  })

  it('CANCEL while waiting and DISCONNECT while connected end the flow; the poller stops', async () => {
    const a = scriptedBackend()
    const waiting = start(a).actor
    await until(() => waiting.getSnapshot().matches('awaitingWallet'))
    const poller = waiting.getSnapshot().children.poll
    waiting.send({ type: 'CANCEL' })
    const cancelled = await toPromise(waiting)
    expect(cancelled.status).toBe('cancelled')
    // The output says why it ended (a cancellation is ABORTED), so its parent maps nothing.
    expect(cancelled.error).toEqual({
      code: 'ABORTED',
      message: 'The wallet flow ended: cancelled.',
    })
    expect(poller?.getSnapshot().status).toBe('stopped')

    const b = scriptedBackend()
    const linked = start(b).actor
    await until(() => linked.getSnapshot().matches('awaitingWallet'))
    b.answer('sess_1', result('sess_1', 'connected'))
    await until(() => linked.getSnapshot().matches('connected'))
    // The connection in the shape every flow reports (the connector id is the wallet id).
    expect(linked.getSnapshot().context.connection).toEqual({
      walletId: 'phantom',
      connectorId: 'phantom',
      namespace: 'solana',
      chainId: input.chainId,
      accounts: [ADDRESS],
    })
    linked.send({ type: 'DISCONNECT' })
    const disconnected = await toPromise(linked)
    expect(disconnected.status).toBe('disconnected')
    expect(disconnected.error).toBeNull()
  })

  it('only waiting and connected states are tagged resumable', () => {
    const resumable = Object.entries(universalLinkMachine.states)
      .filter(([, node]) => node.tags.includes(RESUMABLE_TAG))
      .map(([key]) => key)
    expect(resumable.sort()).toEqual([
      'awaitingSignature',
      'awaitingWallet',
      'connected',
      'reconnecting',
    ])
  })

  /** What holds a flow in `state`: the backend's session creation or the wallet's opening. */
  const HOLD = {
    creatingSession: { holdCreateFrom: 1 },
    openingWallet: { holdOpenFrom: 1 },
    openingWalletToSign: { holdOpenFrom: 2 },
    renewingSession: { holdCreateFrom: 2 },
    openingWalletToReconnect: { holdOpenFrom: 3 },
  } as const

  /** Drives a flow to `state` (each one waits for the wallet, the backend, or the held step). */
  async function flowIn(
    state: keyof typeof HOLD | 'awaitingWallet' | 'awaitingSignature' | 'reconnecting',
  ) {
    const backend = scriptedBackend(state in HOLD ? HOLD[state as keyof typeof HOLD] : {})
    const { actor } = start(backend)
    if (state === 'creatingSession' || state === 'openingWallet') {
      await new Promise((r) => setTimeout(r, 5))
      expect(actor.getSnapshot().value).toBe(state)
      return { actor, backend }
    }
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    if (state === 'awaitingWallet') return { actor, backend }
    backend.answer('sess_1', result('sess_1', 'connected'))
    await until(() => actor.getSnapshot().matches('connected'))
    actor.send({ type: 'SIGN_MESSAGE' })
    if (state === 'openingWalletToSign') return { actor, backend }
    await until(() => actor.getSnapshot().matches('awaitingSignature'))
    if (state === 'awaitingSignature') return { actor, backend }
    backend.answer('sess_1', result('sess_1', 'signed'))
    await until(() => actor.getSnapshot().matches('connected'))
    actor.send({ type: 'SIGN_MESSAGE' })
    await until(() => actor.getSnapshot().matches(state))
    return { actor, backend }
  }

  it.each([
    'creatingSession',
    'openingWallet',
    'awaitingWallet',
    'openingWalletToSign',
    'awaitingSignature',
    'renewingSession',
    'openingWalletToReconnect',
    'reconnecting',
  ] as const)('CANCEL in %s ends in cancelled', async (state) => {
    const { actor } = await flowIn(state)
    expect(actor.getSnapshot().value).toBe(state)
    actor.send({ type: 'CANCEL' })
    expect((await toPromise(actor)).status).toBe('cancelled')
  })

  it.each([
    'openingWalletToSign',
    'awaitingSignature',
    'renewingSession',
    'openingWalletToReconnect',
    'reconnecting',
  ] as const)('DISCONNECT in %s ends in disconnected', async (state) => {
    const { actor } = await flowIn(state)
    actor.send({ type: 'DISCONNECT' })
    expect((await toPromise(actor)).status).toBe('disconnected')
  })

  it('error: a wallet link that fails to open leaves every flow waiting for the wallet', async () => {
    const backend = scriptedBackend({ failOpen: true })
    const { actor, opened } = start(backend)
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    backend.answer('sess_1', result('sess_1', 'connected'))
    await until(() => actor.getSnapshot().matches('connected'))
    actor.send({ type: 'SIGN_MESSAGE' })
    await until(() => actor.getSnapshot().matches('awaitingSignature'))
    backend.answer('sess_1', result('sess_1', 'signed'))
    await until(() => actor.getSnapshot().context.signatures === 1)
    actor.send({ type: 'SIGN_MESSAGE' })
    await until(() => actor.getSnapshot().matches('reconnecting'))
    backend.answer('sess_2', result('sess_2', 'connected'))
    await until(() => actor.getSnapshot().matches('awaitingSignature'))
    expect(opened.map((o) => o.method)).toEqual([
      'connect',
      'signMessage',
      'connect',
      'signMessage',
    ])
    expect(actor.getSnapshot().context.error).toBeNull()
  })

  it('a second transaction also renews the session first', async () => {
    const backend = scriptedBackend()
    const { actor, opened } = start(backend)
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    backend.answer('sess_1', result('sess_1', 'connected', { txSignature: null }))
    await until(() => actor.getSnapshot().matches('connected'))
    actor.send({ type: 'SIGN_TRANSACTION', payload: 'AQID' })
    backend.answer('sess_1', result('sess_1', 'connected', { txSignature: sig('tx-one') }))
    await until(() => actor.getSnapshot().context.signatures === 1)
    actor.send({ type: 'SIGN_TRANSACTION', payload: 'BAUG' })
    await until(() => actor.getSnapshot().matches('reconnecting'))
    expect(opened.at(-1)).toMatchObject({ method: 'connect', session: { sessionId: 'sess_2' } })
    expect(actor.getSnapshot().context.request).toEqual({
      method: 'signTransaction',
      payload: 'BAUG',
    })
  })

  it('a failed session renewal ends in failed', async () => {
    const backend = scriptedBackend({ failCreateFrom: 2 })
    const { actor } = start(backend)
    await until(() => actor.getSnapshot().matches('awaitingWallet'))
    backend.answer('sess_1', result('sess_1', 'signed'))
    await until(() => actor.getSnapshot().matches('connected'))
    actor.send({ type: 'SIGN_MESSAGE' })
    await until(() => actor.getSnapshot().context.signatures === 1)
    actor.send({ type: 'SIGN_MESSAGE' })
    const output = await toPromise(actor)
    expect(output.status).toBe('failed')
    expect(output.error?.code).toBe('BACKEND_ERROR')
  })

  it.each([
    ['USER_REJECTED', 'rejected'],
    ['SESSION_EXPIRED', 'expired'],
    ['SESSION_FAILED', 'failed'],
  ] as const)('the signature wait ending %s goes to %s', async (code, final) => {
    const { actor, backend } = await flowIn('awaitingSignature')
    backend.answer(
      'sess_1',
      code === 'USER_REJECTED'
        ? result('sess_1', 'rejected')
        : code === 'SESSION_EXPIRED'
          ? result('sess_1', 'expired')
          : result('sess_1', 'failed'),
    )
    const output = await toPromise(actor)
    expect(output.status).toBe(final)
    expect(output.error?.code).toBe(code)
  })

  it.each(['awaitingWallet', 'awaitingSignature', 'reconnecting'] as const)(
    'the poller cancelled on its own (ABORTED) in %s ends the flow in cancelled',
    async (state) => {
      const { actor } = await flowIn(state)
      actor.getSnapshot().children.poll?.send({ type: 'CANCEL' })
      const output = await toPromise(actor)
      expect(output.status).toBe('cancelled')
    },
  )

  it.each([
    ['rejected', 'rejected', 'USER_REJECTED'],
    ['expired', 'expired', 'SESSION_EXPIRED'],
    ['failed', 'failed', 'SESSION_FAILED'],
  ] as const)(
    'the renewed session %s while reconnecting ends in %s',
    async (status, final, code) => {
      const { actor, backend } = await flowIn('reconnecting')
      backend.answer('sess_2', result('sess_2', status))
      const output = await toPromise(actor)
      expect(output.status).toBe(final)
      expect(output.error?.code).toBe(code)
    },
  )
})
