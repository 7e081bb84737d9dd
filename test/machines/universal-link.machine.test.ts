import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, toPromise } from 'xstate'
import { universalLinkMachine } from '../../machines/universal-link/universal-link.machine'
import type {
  AwaitWalletInput,
  AwaitWalletOutput,
  OpenWalletEmitted,
  UniversalLinkSession,
} from '../../machines/universal-link/universal-link.types'
import { RESUMABLE_TAG } from '../../machines/universal-link/universal-link.types'
import { AppError } from '../../src/errors'

const session: UniversalLinkSession = {
  sessionId: 'sess_AAAAAAAAAAAAAAAAAAAA',
  nonce: 'nonce-1234567890abcdef',
  sessionToken: 'token-secret-secret-secret-secret-xx',
  expiresAt: Date.now() + 600_000,
}
const input = { walletId: 'phantom', chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' }

/** A controllable wallet: each awaitWallet call waits for the test to settle it. */
function scriptedWallet() {
  const calls: AwaitWalletInput[] = []
  const pending: Array<{ resolve: (o: AwaitWalletOutput) => void; reject: (e: unknown) => void }> =
    []
  const machine = universalLinkMachine.provide({
    actors: {
      createSession: fromPromise(async () => session),
      awaitWallet: fromPromise<AwaitWalletOutput, AwaitWalletInput>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            calls.push(input)
            pending.push({ resolve, reject })
          }),
      ),
    },
  })
  const settle = async (outcome: AwaitWalletOutput | AppError) => {
    await waitFor(() => pending.length > 0)
    const next = pending.shift()!
    if (outcome instanceof AppError) next.reject(outcome)
    else next.resolve(outcome)
    await new Promise((r) => setTimeout(r, 0))
  }
  return { machine, calls, settle }
}

async function waitFor(condition: () => boolean) {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((r) => setTimeout(r, 1))
  expect(condition()).toBe(true)
}

const connected: AwaitWalletOutput = {
  walletAddress: 'So1anaAddre55',
  signature: null,
  txSignature: null,
}

describe('universal-link machine', () => {
  it('creates a session, opens the wallet once, waits, connects, signs and finishes', async () => {
    const { machine, calls, settle } = scriptedWallet()
    const actor = createActor(machine, { input })
    const opened: OpenWalletEmitted[] = []
    actor.on('openWallet', (event) => opened.push(event))
    actor.start()

    await waitFor(() => actor.getSnapshot().matches('awaitingWallet'))
    expect(opened).toEqual([
      { type: 'openWallet', method: 'connect', session, chainId: input.chainId, payload: null },
    ])
    expect(actor.getSnapshot().hasTag(RESUMABLE_TAG)).toBe(true)
    expect(calls[0]).toEqual({ session, until: 'connected' })

    await settle(connected)
    expect(actor.getSnapshot().value).toBe('connected')
    expect(actor.getSnapshot().context.walletAddress).toBe('So1anaAddre55')

    actor.send({ type: 'SIGN_MESSAGE' })
    expect(actor.getSnapshot().value).toBe('awaitingSignature')
    expect(opened[1]?.method).toBe('signMessage')
    expect(calls[1]?.until).toBe('signed')

    await settle({ walletAddress: 'So1anaAddre55', signature: 'sig', txSignature: null })
    const output = await toPromise(actor)
    expect(output).toEqual({
      status: 'done',
      walletAddress: 'So1anaAddre55',
      signature: 'sig',
      txSignature: null,
      error: null,
    })
  })

  it('a transaction request carries its payload to the wallet and waits for the tx signature', async () => {
    const { machine, calls, settle } = scriptedWallet()
    const actor = createActor(machine, { input })
    const opened: OpenWalletEmitted[] = []
    actor.on('openWallet', (event) => opened.push(event))
    actor.start()
    await settle(connected)
    actor.send({ type: 'SIGN_TRANSACTION', payload: 'AQID' })
    expect(opened[1]).toMatchObject({ method: 'signTransaction', payload: 'AQID' })
    expect(calls[1]?.until).toBe('transaction')
    await settle({ walletAddress: 'So1anaAddre55', signature: null, txSignature: 'txsig' })
    expect((await toPromise(actor)).txSignature).toBe('txsig')
  })

  it.each([
    ['USER_REJECTED', 'rejected'],
    ['SESSION_EXPIRED', 'expired'],
    ['SESSION_FAILED', 'failed'],
    ['BACKEND_ERROR', 'failed'],
    ['ABORTED', 'cancelled'],
  ] as const)('a wallet outcome %s ends in %s', async (code, status) => {
    const { machine, settle } = scriptedWallet()
    const actor = createActor(machine, { input }).start()
    await settle(new AppError(code, `outcome ${code}`))
    const output = await toPromise(actor)
    expect(output.status).toBe(status)
    if (status !== 'cancelled') expect(output.error).toEqual({ code, message: `outcome ${code}` })
  })

  it('a failed session creation ends in failed with a JSON-safe error', async () => {
    const machine = universalLinkMachine.provide({
      actors: {
        createSession: fromPromise<UniversalLinkSession, { chainId: string; walletId: string }>(
          async () => {
            throw new AppError('BACKEND_ERROR', 'The backend refused the request.')
          },
        ),
      },
    })
    const output = await toPromise(createActor(machine, { input }).start())
    expect(output.status).toBe('failed')
    expect(JSON.parse(JSON.stringify(output.error))).toEqual({
      code: 'BACKEND_ERROR',
      message: 'The backend refused the request.',
    })
  })

  it('CANCEL while waiting and DISCONNECT while connected end the flow', async () => {
    const a = scriptedWallet()
    const waiting = createActor(a.machine, { input }).start()
    await waitFor(() => waiting.getSnapshot().matches('awaitingWallet'))
    waiting.send({ type: 'CANCEL' })
    expect((await toPromise(waiting)).status).toBe('cancelled')

    const b = scriptedWallet()
    const linked = createActor(b.machine, { input }).start()
    await b.settle(connected)
    linked.send({ type: 'DISCONNECT' })
    expect((await toPromise(linked)).status).toBe('disconnected')
  })

  it('only waiting states are tagged resumable', () => {
    const resumable = Object.entries(universalLinkMachine.states)
      .filter(([, node]) => node.tags.includes(RESUMABLE_TAG))
      .map(([key]) => key)
    expect(resumable.sort()).toEqual(['awaitingSignature', 'awaitingWallet', 'connected'])
  })
})
