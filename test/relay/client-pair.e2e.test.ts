import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { recoverMessageAddress, recoverTypedDataAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type AnyActorRef, type InspectionEvent, waitFor } from 'xstate'
import type {
  PairingPersistedState,
  PairingStore,
} from '../../machines/pairing/pairing.persistence'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { Client, type ClientOptions } from '../../src/client'
import { isAppError } from '../../src/errors'
import { parsePairingUri } from '../../src/relay'
import {
  DAPP_METADATA,
  MAIL_TYPED_DATA as typedData,
  WS,
  walletSimulator,
} from './support/pairing-setup'

// `Client.pair()` end to end: the dApp's Client ↔ the real relay ↔ the wallet side
// (`scope-connect/wallet` with a real viem key and a real ed25519 key).

let server: TestServer
const cleanups: Array<() => unknown> = []

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

function dappClient(options: Partial<ClientOptions> = {}): Client {
  const client = new Client({
    baseUrl: server.baseUrl,
    appKey: server.appKey,
    WebSocket: WS,
    ...options,
  })
  // A client whose page "reloaded" (root stopped) has nothing left to disconnect.
  cleanups.push(() => client.actor.getSnapshot().status === 'active' && client.disconnect())
  return client
}

function wallet(options: Parameters<typeof walletSimulator>[1] = {}) {
  const simulator = walletSimulator(server, options)
  cleanups.push(() => simulator.close())
  return simulator
}

describe('Client.pair()', () => {
  it('pairs over the relay; signMessage and signTypedData go over the session and recover to the wallet', async () => {
    const client = dappClient()
    const flow = await client.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })
    expect(parsePairingUri(flow.uri as string).relayUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\//)
    expect(client.getConnection()).toBeNull()

    const simulator = wallet()
    const { proposal } = await simulator.pairAndApprove(flow.uri as string)
    expect(proposal.requiredNamespaces).toEqual({
      eip155: {
        chains: ['eip155:31337'],
        methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction'],
      },
    })
    await flow.approval
    expect(client.getConnection()).toEqual({
      walletId: undefined,
      connectorId: 'relay',
      namespace: 'eip155',
      chainId: 'eip155:31337',
      accounts: [simulator.evm.address],
    })

    const signature = await client.signMessage('Sign in to Example')
    expect(
      await recoverMessageAddress({
        message: 'Sign in to Example',
        signature: signature as `0x${string}`,
      }),
    ).toBe(simulator.evm.address)

    const typedSignature = await client.signTypedData(typedData)
    const { EIP712Domain: _domain, ...types } = typedData.types
    expect(
      await recoverTypedDataAddress({
        types,
        primaryType: 'Mail',
        domain: typedData.domain,
        message: typedData.message,
        signature: typedSignature as `0x${string}`,
      }),
    ).toBe(simulator.evm.address)
    expect(simulator.requests.map((r) => r.method)).toEqual([
      'personal_sign',
      'eth_signTypedData_v4',
    ])

    await client.disconnect()
    expect(client.getConnection()).toBeNull()
    await waitFor(flow.actor, (s) => s.status !== 'active')
    expect(flow.actor.getSnapshot().value).toBe('disconnected')
    await expect.poll(() => simulator.wallet.sessions().length).toBe(0)
    expect(isAppError(await client.signMessage('x').catch((e) => e), 'NOT_CONNECTED')).toBe(true)
  })

  it('signs a Solana message over a paired Solana session (ed25519, base58)', async () => {
    const client = dappClient()
    const flow = await client.pair({ namespace: 'solana', metadata: DAPP_METADATA })
    const simulator = wallet()
    await simulator.pairAndApprove(flow.uri as string)
    await flow.approval
    const connection = client.getConnection()
    expect(connection).toMatchObject({ namespace: 'solana', accounts: [simulator.solanaAddress] })
    expect(connection?.chainId).toBe('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')

    const signature = await client.signMessage('Sign in to Example')
    expect(
      ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode('Sign in to Example'),
        base58.decode(simulator.solanaAddress),
      ),
    ).toBe(true)
    const typed = await client.signTypedData(typedData).catch((e) => e)
    expect(isAppError(typed, 'UNSUPPORTED_CHAIN')).toBe(true)
  })

  it('the wallet rejects: approval fails with USER_REJECTED and the client stays unconnected', async () => {
    const client = dappClient()
    const flow = await client.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })
    const proposal = await wallet().wallet.pair(flow.uri as string)
    await proposal.reject()
    expect(isAppError(await flow.approval.catch((e) => e), 'USER_REJECTED')).toBe(true)
    expect(client.getConnection()).toBeNull()
    expect(isAppError(await client.signMessage('x').catch((e) => e), 'NOT_CONNECTED')).toBe(true)
  })

  it('a second pair() stops the first pairing; outside a page metadata is required', async () => {
    const client = dappClient()
    const first = await client.pair({ metadata: DAPP_METADATA })
    const second = await client.pair({ metadata: DAPP_METADATA })
    expect(first.actor.getSnapshot().status).toBe('stopped')
    expect(isAppError(await first.approval.catch((e) => e), 'ABORTED')).toBe(true)
    expect(client.getView()).toMatchObject({ status: 'pairing', pairingUri: second.uri })
    expect(second.uri).not.toBe(first.uri)
    const error = await client.pair().catch((e) => e)
    expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
    expect(error.message).toMatch(/metadata/)
  })
})

/** A store that keeps the JSON text, as localStorage would. */
function jsonStore(): PairingStore & { raw: string | null } {
  const store = {
    raw: null as string | null,
    save(state: PairingPersistedState) {
      store.raw = JSON.stringify(state)
    },
    load() {
      return store.raw === null ? null : (JSON.parse(store.raw) as PairingPersistedState)
    },
    clear() {
      store.raw = null
    },
  }
  return store
}

describe("Client.pair() as the root's child", () => {
  it('the view reports the pairing; cancel() while pairing rejects the approval with ABORTED', async () => {
    const client = dappClient()
    const flow = await client.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })
    expect(client.getView()).toMatchObject({
      status: 'pairing',
      pairingUri: flow.uri,
      connectionKind: 'relay',
      canCancel: true,
      isBusy: true,
      isConnected: false,
    })
    const child = (client.actor.getSnapshot().children as Record<string, unknown>).pairing
    expect(child).toBe(flow.actor)
    client.cancel()
    expect(isAppError(await flow.approval.catch((e) => e), 'ABORTED')).toBe(true)
    expect(client.getView()).toMatchObject({ status: 'idle', pairingUri: null, canCancel: false })
    expect(flow.actor.getSnapshot().status).toBe('stopped')
  })

  it('a paired session survives a reload: a new Client resumes it, signs over the relay, disconnects', async () => {
    const store = jsonStore()
    const first = dappClient({ pairing: { store } })
    const flow = await first.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })
    const simulator = wallet()
    await simulator.pairAndApprove(flow.uri as string)
    await flow.approval
    expect(first.getView()).toMatchObject({ status: 'connected', pairingUri: null })
    expect(store.raw).not.toBeNull()
    const saved = JSON.parse(store.raw as string) as PairingPersistedState
    expect(saved.fingerprint).toBe('client.relay@1')
    // The root's snapshot holds no key: only the envelope's secrets do, beside it.
    const snapshotText = JSON.stringify(saved.snapshot)
    expect(snapshotText).not.toContain(saved.secrets.symKeyS)
    expect(snapshotText).not.toContain(saved.secrets.sessionTopic)
    expect(snapshotText).not.toContain((flow.uri as string).split('symKey=')[1]?.split('&')[0])
    // The page goes away without a word to the wallet (no disconnect).
    first.actor.stop()

    const second = dappClient({ pairing: { store } })
    const result = await second.resume()
    expect(result.status).toBe('connected')
    expect(result.status === 'connected' && result.connection).toMatchObject({
      connectorId: 'relay',
      accounts: [simulator.evm.address],
    })
    expect(second.getView()).toMatchObject({ status: 'connected', connectionKind: 'relay' })
    const signature = await second.signMessage('Welcome back')
    expect(
      await recoverMessageAddress({
        message: 'Welcome back',
        signature: signature as `0x${string}`,
      }),
    ).toBe(simulator.evm.address)
    await second.disconnect()
    expect(second.getView().status).toBe('idle')
    expect(store.raw).toBeNull()
    await expect.poll(() => simulator.wallet.sessions().length).toBe(0)
  })

  /** A Client pairs through the store and its page goes (no disconnect): the store and the wallet. */
  async function pairedThenGone() {
    const store = jsonStore()
    const first = dappClient({ pairing: { store } })
    const flow = await first.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })
    const simulator = wallet()
    await simulator.pairAndApprove(flow.uri as string)
    await flow.approval
    first.actor.stop()
    return { store, simulator }
  }

  it.each([
    [
      'a record schema this release cannot read',
      (r: PairingPersistedState) => ({ ...r, fingerprint: 'client.relay@0' }),
      /no migration is registered/,
    ],
    [
      'keys of another pairing',
      (r: PairingPersistedState) => ({
        ...r,
        secrets: { ...r.secrets, pairingId: 'ab'.repeat(16) },
      }),
      /another pairing/,
    ],
    [
      'a broken envelope',
      (r: PairingPersistedState) => ({ ...r, format: 'other' }),
      /not a valid envelope/,
    ],
    ['an expired session', (r: PairingPersistedState) => ({ ...r, expiresAt: 1 }), /expired/],
  ] as const)(
    'resume() discards %s with its reason and clears the store',
    async (_name, mutate, reason) => {
      const { store } = await pairedThenGone()
      store.raw = JSON.stringify(mutate(JSON.parse(store.raw as string)))
      const second = dappClient({ pairing: { store } })
      const result = await second.resume()
      expect(result.status).toBe('discarded')
      expect(result.status === 'discarded' && result.reason).toMatch(reason)
      expect(store.raw).toBeNull()
      expect(second.getView().status).toBe('idle')
    },
  )

  it('a migration registered for an older fingerprint restores its record', async () => {
    const { store, simulator } = await pairedThenGone()
    store.raw = JSON.stringify({
      ...JSON.parse(store.raw as string),
      fingerprint: 'feedfacefeedface',
    })
    const second = dappClient({
      pairing: { store, migrations: { feedfacefeedface: (record) => record } },
    })
    expect((await second.resume()).status).toBe('connected')
    expect(second.getConnection()?.accounts).toEqual([simulator.evm.address])
  })

  it('a record written while the pairing kept its end in context (`outcome: null`) still resumes', async () => {
    const { store, simulator } = await pairedThenGone()
    const record = JSON.parse(store.raw as string) as PairingPersistedState & {
      snapshot: { children: { pairing: { snapshot: { context: Record<string, unknown> } } } }
    }
    expect(record.snapshot.children.pairing.snapshot.context).not.toHaveProperty('outcome')
    record.snapshot.children.pairing.snapshot.context.outcome = null
    store.raw = JSON.stringify(record)

    const second = dappClient({ pairing: { store } })
    expect((await second.resume()).status).toBe('connected')
    expect(second.getConnection()?.accounts).toEqual([simulator.evm.address])
    const pairing = second.actor.system.get('pairing')?.getSnapshot()
    expect(pairing?.context).not.toHaveProperty('outcome')
    await second.disconnect()
  })

  it("one inspector sees the pairing child's events and no key, URI, relay token or signature value", async () => {
    const events: InspectionEvent[] = []
    const store = jsonStore()
    const relayTokens: string[] = []
    const client = dappClient({
      inspect: (event) => events.push(event),
      pairing: { store },
      fetchImpl: async (input, init) => {
        const response = await fetch(input, init)
        const url = input instanceof Request ? input.url : String(input)
        if (url.endsWith('/relay/token'))
          relayTokens.push(((await response.clone().json()) as { token: string }).token)
        return response
      },
    })
    const flow = await client.pair({ chains: ['eip155:31337'], metadata: DAPP_METADATA })
    const simulator = wallet()
    await simulator.pairAndApprove(flow.uri as string)
    await flow.approval
    // The session key and topic, as the store keeps them beside the snapshot.
    const { secrets } = JSON.parse(store.raw as string) as PairingPersistedState
    const signature = await client.signMessage('Inspect me')
    // The wallet's answer is a registered secret: wherever it shows up later (here in an event
    // sent on purpose), the inspector sees it redacted.
    client.actor.send({ type: 'APP.NOTE', note: signature } as never)
    // So is the relay token (it rides in the WebSocket URL).
    expect(relayTokens.length).toBeGreaterThan(0)
    client.actor.send({ type: 'APP.NOTE', note: `wss://relay/?token=${relayTokens[0]}` } as never)
    await client.disconnect()
    // The redaction loads on demand (a dynamic import): the events wait for it, then all arrive.
    await vi.waitFor(() =>
      expect(events.some((e) => e.type === '@xstate.event' && e.event.type === 'DISCONNECT')).toBe(
        true,
      ),
    )
    const pairingActorEvents = events.filter(
      (e) => e.type === '@xstate.event' && (e.actorRef as AnyActorRef).id === 'pairing',
    )
    expect(pairingActorEvents.map((e) => (e as { event: { type: string } }).event.type)).toEqual(
      expect.arrayContaining(['xstate.snapshot.relayConnection', 'REQUEST', 'DISCONNECT']),
    )
    expect(events.some((e) => e.type === '@xstate.event' && e.event.type === 'PAIR')).toBe(true)
    // Everything the inspector was handed, snapshots of the refs included.
    const text = JSON.stringify(
      events.map((e) => ({ ...e, actorRef: undefined, snapshot: e.actorRef.getSnapshot() })),
      (_key, value) => (typeof value === 'bigint' ? value.toString() : value),
    )
    const { symKeyP, pairingTopic } = parsePairingUri(flow.uri as string)
    for (const secret of [
      flow.uri as string,
      bytesToHex(symKeyP),
      pairingTopic,
      secrets.symKeyS,
      secrets.sessionTopic,
      signature,
      signature.slice(2),
      ...relayTokens,
    ])
      expect(text).not.toContain(secret)
    expect(text).toContain('[redacted]')
  })
})
