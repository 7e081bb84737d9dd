import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { recoverMessageAddress, recoverTypedDataAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from 'xstate'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { Client } from '../../src/client'
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

function dappClient(): Client {
  const client = new Client({ baseUrl: server.baseUrl, appKey: server.appKey, WebSocket: WS })
  cleanups.push(() => client.disconnect())
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
      eip155: { chains: ['eip155:31337'], methods: ['personal_sign', 'eth_signTypedData_v4'] },
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
    expect(second.uri).not.toBe(first.uri)
    const error = await client.pair().catch((e) => e)
    expect(isAppError(error, 'INVALID_CONFIG')).toBe(true)
    expect(error.message).toMatch(/metadata/)
  })
})
