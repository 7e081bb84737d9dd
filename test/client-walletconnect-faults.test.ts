import fc from 'fast-check'
import { recoverMessageAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Client } from '../src/client'
import { WalletConnectConnector } from '../src/connectors'
import type { AppError } from '../src/errors'
import { SESSION_REQUEST_TAG } from './support/walletconnect-relay-double'
import { testWalletConnectOptions } from './support/walletconnect-wallet'
import { useWalletConnectWorld } from './support/walletconnect-world'

// A fault sequence over the WalletConnect connector through the Client: connect / sign / send /
// switchChain / disconnect interleaved with faults (the wallet rejects, errors or hangs; the relay
// drops its sockets mid-request; the wallet deletes the session). The real sign-client on both
// sides, the relay double between them, the real backend and anvil. After each step the view is
// consistent with what happened; after the whole sequence a connect (if needed) and a signature work.

const CHAIN = 'eip155:31337'
const OTHER = 'eip155:1'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const world = useWalletConnectWorld({ chains: [CHAIN, OTHER] })

function newClient(): Client {
  return world.newClient({
    timeouts: { signatureMs: 3_000, walletAnswerMs: 8_000 },
    connectors: [new WalletConnectConnector(testWalletConnectOptions(world.relay.url, [CHAIN]))],
  }).client
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  )
const until = async (condition: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

type Fault = 'none' | 'reject' | 'error' | 'hang' | 'drop'
type Step =
  | { kind: 'connect'; fault: 'none' | 'reject' }
  | { kind: 'sign'; fault: Fault }
  | { kind: 'send'; fault: 'none' | 'reject' }
  | { kind: 'switchChain'; fault: 'none' | 'reject' }
  | { kind: 'disconnect' }
  | { kind: 'deleteSession' }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('connect' as const), fault: fc.constantFrom('none', 'reject') }),
  fc.record({
    kind: fc.constant('sign' as const),
    fault: fc.constantFrom<Fault>('none', 'reject', 'error', 'hang', 'drop'),
  }),
  fc.record({ kind: fc.constant('send' as const), fault: fc.constantFrom('none', 'reject') }),
  fc.record({
    kind: fc.constant('switchChain' as const),
    fault: fc.constantFrom('none', 'reject'),
  }),
  fc.record({ kind: fc.constant('disconnect' as const) }),
  fc.record({ kind: fc.constant('deleteSession' as const) }),
)

/** Runs one step and checks the view against what it should have done. */
async function run(client: Client, step: Step): Promise<void> {
  const connected = client.getView().isConnected
  world.wallet.proposals = 'approve'
  world.wallet.requests = 'approve'
  switch (step.kind) {
    case 'connect': {
      if (connected) return
      world.wallet.proposals = step.fault === 'reject' ? 'reject' : 'approve'
      const error = await failure(client.connect())
      if (step.fault === 'reject') {
        expect(error?.code).toBe('USER_REJECTED')
        expect(client.getView()).toMatchObject({ isConnected: false, pairingUri: null })
      } else {
        expect(error).toBeNull()
        expect(client.getView()).toMatchObject({
          isConnected: true,
          address: world.wallet.account.address,
          pairingUri: null,
        })
      }
      return
    }
    case 'sign': {
      if (!connected) {
        expect((await failure(client.signMessage('x')))?.code).toBe('NOT_CONNECTED')
        return
      }
      if (step.fault === 'drop') {
        const requested = world.relay.nextPublish(SESSION_REQUEST_TAG)
        const signing = client.signMessage('dropped')
        await requested
        world.relay.dropConnections()
        const signature = (await signing) as `0x${string}`
        expect(await recoverMessageAddress({ message: 'dropped', signature })).toBe(
          world.wallet.account.address,
        )
        return
      }
      if (step.fault !== 'none') world.wallet.requests = step.fault === 'hang' ? 'hang' : step.fault
      const outcome = await client.signMessage('step').then(
        (signature) => ({ signature: signature as `0x${string}` }),
        (error: AppError) => ({ error }),
      )
      world.wallet.requests = 'approve'
      await world.wallet.rejectHung()
      const expected = {
        none: null,
        reject: 'USER_REJECTED',
        error: 'WALLET_ERROR',
        hang: 'TIMEOUT',
      }[step.fault]
      if (expected === null) {
        expect('signature' in outcome).toBe(true)
        if ('signature' in outcome) {
          expect(
            await recoverMessageAddress({ message: 'step', signature: outcome.signature }),
          ).toBe(world.wallet.account.address)
        }
      } else {
        expect('error' in outcome ? outcome.error.code : null).toBe(expected)
      }
      expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false })
      return
    }
    case 'send': {
      if (!connected || client.getView().chainId !== CHAIN) return
      if (step.fault === 'reject') {
        world.wallet.requests = 'reject'
        const error = await failure(client.sendTransaction({ to: RECIPIENT, value: 1n }))
        expect(error?.code).toBe('USER_REJECTED')
      } else {
        const handle = await client.sendTransaction({ to: RECIPIENT, value: 1n })
        expect(handle.hash).toMatch(/^0x[0-9a-f]{64}$/)
      }
      expect(client.getView().isConnected).toBe(true)
      return
    }
    case 'switchChain': {
      if (!connected) return
      const from = client.getView().chainId
      const target = from === CHAIN ? OTHER : CHAIN
      if (step.fault === 'reject') {
        world.wallet.requests = 'reject'
        expect((await failure(client.switchChain(target)))?.code).toBe('USER_REJECTED')
        expect(client.getView().chainId).toBe(from)
      } else {
        await client.switchChain(target)
        expect(client.getView().chainId).toBe(target)
      }
      return
    }
    case 'disconnect': {
      await client.disconnect()
      expect(client.getView()).toMatchObject({ isConnected: false, address: null })
      return
    }
    case 'deleteSession': {
      if (!connected) return
      const topic = world.wallet.client.session.getAll().at(-1)?.topic ?? ''
      await world.wallet.deleteSession(topic)
      await until(() => !client.getView().isConnected)
      expect(client.getView().address).toBeNull()
      return
    }
  }
}

/** After any sequence: connect (if needed), then a signature works. */
async function nextCallWorks(client: Client): Promise<void> {
  world.wallet.proposals = 'approve'
  world.wallet.requests = 'approve'
  if (!client.getView().isConnected) await client.connect()
  const signature = (await client.signMessage('next')) as `0x${string}`
  expect(await recoverMessageAddress({ message: 'next', signature })).toBe(
    world.wallet.account.address,
  )
}

async function sequence(steps: Step[]): Promise<void> {
  const client = newClient()
  try {
    for (const step of steps) await run(client, step)
    await nextCallWorks(client)
  } finally {
    await client.disconnect().catch(() => {})
  }
}

describe('Client + WalletConnectConnector: fault sequences', () => {
  it('property: any interleaving of calls and faults leaves a consistent view, and the next call works', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 6 }), (steps) =>
        // Most steps need a session: a sequence opening with a signature starts connected.
        sequence(
          steps[0]?.kind === 'sign' ? [{ kind: 'connect', fault: 'none' }, ...steps] : steps,
        ),
      ),
      { numRuns: 10, endOnFailure: true },
    )
  }, 120_000)

  // Kept from a failing run with signatureMs 800: a dropped socket's reconnect took longer than
  // the signature's deadline (TIMEOUT). Then with 3 s: `sign/hang, sign/drop, send/reject`, below.
  it('regression: a session deleted after a dropped socket, then connect and sign', async () => {
    await sequence([
      { kind: 'connect', fault: 'none' },
      { kind: 'sign', fault: 'drop' },
      { kind: 'deleteSession' },
      { kind: 'connect', fault: 'none' },
      { kind: 'sign', fault: 'hang' },
    ])
  }, 60_000)

  // Kept from a two-worker CI run: the drop waited for the wallet's late answer to the hung
  // request (any `irn_publish`), not the dApp's request, so it cut the socket before the request
  // was sent, and sign-client publishes a request lost that way again only after 15 s.
  it('regression: a hung signature, then one whose socket drops, then a rejected transaction', async () => {
    await sequence([
      { kind: 'connect', fault: 'none' },
      { kind: 'sign', fault: 'hang' },
      { kind: 'sign', fault: 'drop' },
      { kind: 'send', fault: 'reject' },
    ])
  }, 60_000)
})
