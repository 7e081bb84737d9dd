import { recoverMessageAddress, recoverTypedDataAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { isAppError } from '../../src/errors'
import { parsePairingUri } from '../../src/relay'
import { dappPairing, MAIL_TYPED_DATA as typedData, walletSimulator } from './support/pairing-setup'

let server: TestServer
const cleanups: Array<() => void> = []

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function track<T extends { stop?: () => void; close?: () => void }>(thing: T): T {
  cleanups.push(() => (thing.stop ?? thing.close)?.call(thing))
  return thing
}

describe('dApp ↔ relay ↔ wallet', () => {
  it('pairs, approves, and answers personal_sign and eth_signTypedData_v4 verified by recovery', async () => {
    const dapp = track(dappPairing(server))
    expect(dapp.uri).toMatch(/^scope:[0-9a-f]{64}@1\?relay-url=ws%3A%2F%2F127\.0\.0\.1/)
    expect(parsePairingUri(dapp.uri as string).expiryTimestamp).toBeGreaterThan(Date.now() / 1000)
    const wallet = track(walletSimulator(server))

    const { proposal, session } = await wallet.pairAndApprove(dapp.uri as string)
    expect(proposal.proposer.metadata.name).toBe('Example dApp')
    expect(proposal.requiredNamespaces.eip155?.chains).toEqual(['eip155:31337'])
    const paired = await dapp.approval
    expect(paired.namespaces.eip155?.accounts).toEqual([`eip155:31337:${wallet.evm.address}`])
    expect(paired.peer.metadata.name).toBe('Wallet Simulator')
    expect(paired.expiresAt).toBe(session.expiresAt - (session.expiresAt % 1000))
    expect(dapp.actor.getSnapshot().matches({ active: { flow: { paired: 'idle' } } })).toBe(true)

    const signature = await dapp.signMessage('Sign in to Example')
    expect(
      await recoverMessageAddress({
        message: 'Sign in to Example',
        signature: signature as `0x${string}`,
      }),
    ).toBe(wallet.evm.address)

    const typedSignature = await dapp.signTypedData(typedData)
    const { EIP712Domain: _d, ...types } = typedData.types
    expect(
      await recoverTypedDataAddress({
        types,
        primaryType: 'Mail',
        domain: typedData.domain,
        message: typedData.message,
        signature: typedSignature as `0x${string}`,
      }),
    ).toBe(wallet.evm.address)
    expect(wallet.requests.map((r) => r.method)).toEqual(['personal_sign', 'eth_signTypedData_v4'])
    expect(dapp.actor.getSnapshot().context.lastRequest).toMatchObject({
      method: 'eth_signTypedData_v4',
      status: 'answered',
    })
  })

  it('hosts its relay connection as a child: the relay-connection chart, by systemId, stopped with the flow', async () => {
    const dapp = track(dappPairing(server, { relay: { keepaliveMs: 7_000 } }))
    const wallet = track(walletSimulator(server))
    await wallet.pairAndApprove(dapp.uri as string)
    await dapp.approval
    const child = dapp.actor.system.get('relayConnection')
    expect(child).toBeDefined()
    expect(dapp.actor.getSnapshot().children.relayConnection).toBe(child)
    const { context } = child.getSnapshot()
    expect(context).toMatchObject({
      connectionId: dapp.actor.getSnapshot().context.pairingId,
      keepaliveMs: 7_000,
    })
    // The connectivity region follows what the child reports.
    expect(child.getSnapshot().hasTag('online')).toBe(true)
    expect(dapp.actor.getSnapshot().matches({ active: { connectivity: 'online' } })).toBe(true)

    dapp.actor.send({ type: 'CANCEL' })
    expect(child.getSnapshot().status).toBe('stopped')
    expect(dapp.actor.system.get('relayConnection')).toBeUndefined()
  })

  it('a request the user rejects fails with USER_REJECTED and the session stays', async () => {
    const dapp = track(dappPairing(server))
    const wallet = track(
      walletSimulator(server, {
        decide: (r) => (r.method === 'personal_sign' ? 'reject' : 'approve'),
      }),
    )
    await wallet.pairAndApprove(dapp.uri as string)
    await dapp.approval
    const error = await dapp.signMessage('no').catch((e) => e)
    expect(isAppError(error, 'USER_REJECTED')).toBe(true)
    expect(dapp.actor.getSnapshot().context.lastRequest).toMatchObject({
      status: 'failed',
      error: { code: 'USER_REJECTED' },
    })
    await dapp.ping()
    expect(dapp.actor.getSnapshot().context.lastPingAt).not.toBeNull()
  })

  it('the wallet rejects the proposal: the flow ends in rejected with USER_REJECTED', async () => {
    const dapp = track(dappPairing(server))
    const wallet = track(walletSimulator(server))
    const proposal = await wallet.wallet.pair(dapp.uri as string)
    await proposal.reject()
    const error = await dapp.approval.catch((e) => e)
    expect(isAppError(error, 'USER_REJECTED')).toBe(true)
    expect(dapp.actor.getSnapshot().value).toBe('rejected')
  })

  it('the proposal expires when nobody answers, and the wallet refuses the stale URI', async () => {
    const dapp = track(dappPairing(server, { proposalTtlSeconds: 1 }))
    const error = await dapp.approval.catch((e) => e)
    expect(isAppError(error, 'SESSION_EXPIRED')).toBe(true)
    expect(dapp.actor.getSnapshot().value).toBe('expired')
    const wallet = track(walletSimulator(server))
    await expect(wallet.wallet.pair(dapp.uri as string)).rejects.toMatchObject({
      code: 'SESSION_EXPIRED',
    })
  })

  it('either side can disconnect; the other sees it', async () => {
    const dapp = track(dappPairing(server))
    const wallet = track(walletSimulator(server))
    await wallet.pairAndApprove(dapp.uri as string)
    await dapp.approval
    await wallet.wallet.disconnect()
    await waitUntil(() => dapp.actor.getSnapshot().status === 'done')
    expect(dapp.actor.getSnapshot().value).toBe('disconnected')
    expect(dapp.actor.getSnapshot().context.error?.code).toBe('NOT_CONNECTED')

    const dapp2 = track(dappPairing(server))
    const wallet2 = track(walletSimulator(server))
    const deleted: string[] = []
    wallet2.wallet.onSessionDelete((s) => deleted.push(s.id))
    const { session } = await wallet2.pairAndApprove(dapp2.uri as string)
    await dapp2.approval
    await dapp2.disconnect()
    expect(dapp2.actor.getSnapshot().value).toBe('disconnected')
    await waitUntil(() => deleted.length === 1)
    expect(deleted).toEqual([session.id])
    expect(wallet2.wallet.sessions()).toEqual([])
  })
})

describe('wallet rules', () => {
  const SOLANA = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

  it('solana_signMessage over the relay, verified with ed25519', async () => {
    const dapp = track(
      dappPairing(server, {
        requiredNamespaces: { solana: { chains: [SOLANA], methods: ['solana_signMessage'] } },
      }),
    )
    const wallet = track(walletSimulator(server))
    await wallet.pairAndApprove(dapp.uri as string)
    await dapp.approval
    const signature = await dapp.signSolanaMessage('Sign in with Solana')
    const { ed25519 } = await import('@noble/curves/ed25519.js')
    const { base58 } = await import('@scure/base')
    expect(
      ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode('Sign in with Solana'),
        base58.decode(wallet.solanaAddress),
      ),
    ).toBe(true)
  })

  it('refuses accounts, chains and methods outside the session, and methods it does not serve', async () => {
    const dapp = track(
      dappPairing(server, {
        requiredNamespaces: {
          eip155: { chains: ['eip155:31337'], methods: ['personal_sign', 'eth_signTypedData_v4'] },
          solana: { chains: [SOLANA], methods: ['solana_signMessage', 'solana_signTransaction'] },
        },
      }),
    )
    const wallet = track(walletSimulator(server))
    await wallet.pairAndApprove(dapp.uri as string)
    await dapp.approval
    const other = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
    await expect(dapp.signMessage('x', { address: other })).rejects.toMatchObject({
      code: 'WALLET_ERROR',
      backendCode: '4100',
    })
    await expect(dapp.signMessage('x', { chainId: 'eip155:1' })).rejects.toMatchObject({
      code: 'NOT_CONNECTED',
    })
    await expect(
      dapp.request({
        method: 'personal_sign',
        params: ['0x00', wallet.evm.address],
        chainId: 'eip155:1',
      }),
    ).rejects.toMatchObject({ code: 'WALLET_ERROR', backendCode: '4100' })
    await expect(
      dapp.request({ method: 'solana_signTransaction', params: { transaction: 'AQID' } }),
    ).rejects.toMatchObject({ code: 'WALLET_ERROR', backendCode: '4200' })
    await expect(
      dapp.request({ method: 'eth_sendTransaction', params: [{}] }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
    expect(wallet.requests.map((r) => r.method)).toEqual(['solana_signTransaction'])
  })

  it('approve needs every required namespace, with CAIP-10 accounts; a proposal is answered once', async () => {
    const dapp = track(dappPairing(server))
    const wallet = track(walletSimulator(server))
    const proposal = await wallet.wallet.pair(dapp.uri as string)
    await expect(
      proposal.approve({
        namespaces: { solana: { accounts: [`${SOLANA}:${wallet.solanaAddress}`] } },
      }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
    await expect(
      proposal.approve({ namespaces: { eip155: { accounts: [wallet.evm.address] } } }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
    await proposal.approve({
      namespaces: { eip155: { accounts: [`eip155:31337:${wallet.evm.address}`] } },
    })
    await expect(proposal.reject()).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
    await dapp.approval
  })

  it('pair() waits for a proposal at most proposalWaitMs, and refuses malformed URIs', async () => {
    const wallet = track(walletSimulator(server, { proposalWaitMs: 300 }))
    const { createPairing } = await import('../../src/relay')
    const lonely = createPairing(`${server.baseUrl.replace('http', 'ws')}/api/v1/connect/relay`)
    await expect(wallet.wallet.pair(lonely.uri)).rejects.toMatchObject({ code: 'TIMEOUT' })
    await expect(wallet.wallet.pair('wc:abc@2?relay-protocol=irn')).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    })
  })
})

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 10))
  }
}
