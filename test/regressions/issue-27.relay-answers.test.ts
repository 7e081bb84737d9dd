// Issue 27, "wallet answers checked", over the relay (`Client.pair()`, `scr`): the approval's
// accounts and chains and every request's result go through the checks of the desktop connectors
// (src/connectors/wallet-answers.ts). Random bad answers (fast-check) from a wallet on the real
// relay of the real backend (test/relay/support/answering-relay-wallet.ts: the real relay peer and
// key agreement, without the honest wallet's own checks), real viem and ed25519 keys; after each
// bad answer the next call works. The charts: machines/pairing/ (`PEER.ACCOUNTS`) and
// machines/client/ (the relay `signing` state's `ACCOUNT_CHANGED`).
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import fc from 'fast-check'
import { type Hex, recoverMessageAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../server/test/support/server'
import { Client } from '../../src/client'
import { isAppError } from '../../src/errors'
import {
  type AnsweringRelayWalletOptions,
  createAnsweringRelayWallet,
} from '../relay/support/answering-relay-wallet'
import { DAPP_METADATA, WS, walletSimulator } from '../relay/support/pairing-setup'

const CHAIN = 'eip155:31337'
const SOLANA_CHAIN = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const evm = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
)
const solanaSecret = ed25519.utils.randomSecretKey()
const solanaAddress = base58.encode(ed25519.getPublicKey(solanaSecret))

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
  cleanups.push(() => client.actor.getSnapshot().status === 'active' && client.actor.stop())
  return client
}

function answeringWallet(options: Omit<AnsweringRelayWalletOptions, 'appKey'>) {
  const wallet = createAnsweringRelayWallet({ appKey: server.appKey, ...options })
  cleanups.push(() => wallet.close())
  return wallet
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (isAppError(error) ? error.code : String(error)),
  )

/** `address` (EIP-55) with its first letter's case flipped. */
function badChecksum(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2
  const c = address[i] as string
  const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()
  return address.slice(0, i) + flipped + address.slice(i + 1)
}

const evmNamespaces = (accounts: unknown, chains: unknown = [CHAIN]) => ({
  eip155: { accounts, chains, methods: ['personal_sign', 'eth_sendTransaction'] },
})

/** Approvals whose shape the protocol takes but whose accounts or chains are no wallet's. */
const badApproval = fc.oneof(
  fc.constant(evmNamespaces([`${CHAIN}:not-an-address`])),
  // Shrunk on the code before the fix: a 20-character alphanumeric "address" was the connection.
  fc.constant(evmNamespaces([`${CHAIN}:aaaaaaaA0Aaaaaaaaaaa`])),
  fc.constant(evmNamespaces([`${CHAIN}:0x12`])),
  // A string where the list of accounts goes.
  fc.constant(evmNamespaces(`${CHAIN}:${evm.address}`)),
  fc.constant(evmNamespaces([])),
  // An EIP-55 address with one letter's case flipped: a broken checksum.
  fc.constant(evmNamespaces([`${CHAIN}:${badChecksum(evm.address)}`])),
  // Invalid chain ids: hex, zero, a chain of another namespace.
  fc
    .constantFrom('eip155:0x1', 'eip155:0', 'eip155:01')
    .map((chain) => evmNamespaces([`${chain}:${evm.address}`], [chain])),
  fc.constant(evmNamespaces([`${CHAIN}:${evm.address}`], ['eip155:abc'])),
  fc
    .stringMatching(/^[A-Za-z0-9]{20,60}$/)
    .map((address) => evmNamespaces([`${CHAIN}:${address}`])),
  // Solana: keys that are not 32 bytes of base58.
  fc
    .oneof(
      fc.constant('not-base58-0OIl'),
      fc.uint8Array({ minLength: 1, maxLength: 31 }).map((b) => base58.encode(b)),
    )
    .map((key) => ({
      solana: { accounts: [`${SOLANA_CHAIN}:${key}`], methods: ['solana_signMessage'] },
    })),
)

describe('issue 27: the approval of a paired session is checked', () => {
  it('property: bad accounts or chain ids reject the approval with WALLET_ERROR; the next pair() connects', async () => {
    await fc.assert(
      fc.asyncProperty(badApproval, async (namespaces) => {
        const client = dappClient()
        const solana = 'solana' in namespaces
        const flow = await client.pair({
          ...(solana ? { namespace: 'solana' as const } : { chains: [CHAIN] }),
          metadata: DAPP_METADATA,
        })
        const wallet = answeringWallet({ namespaces: () => namespaces, answer: () => null })
        await wallet.pairAndApprove(flow.uri as string)
        expect(await codeOf(flow.approval)).toBe('WALLET_ERROR')
        expect(client.getConnection()).toBeNull()
        expect(client.getView()).toMatchObject({ isConnected: false, isBusy: false })

        // The next pairing, with a wallet that answers well, connects.
        const next = await client.pair({
          ...(solana ? { namespace: 'solana' as const } : { chains: [CHAIN] }),
          metadata: DAPP_METADATA,
        })
        const good = answeringWallet({
          namespaces: () =>
            solana
              ? { solana: { accounts: [`${SOLANA_CHAIN}:${solanaAddress}`] } }
              : evmNamespaces([`${CHAIN}:${evm.address}`]),
          answer: () => null,
        })
        await good.pairAndApprove(next.uri as string)
        await next.approval
        expect(client.getConnection()?.accounts).toEqual([solana ? solanaAddress : evm.address])
        await client.disconnect()
      }),
      { numRuns: 12 },
    )
  }, 120_000)
})

/** What an EVM signing method answers that is no signature. */
const badEvmSignature = fc.oneof(
  fc.string({ maxLength: 200 }).filter((s) => !/^0x(?:[0-9a-fA-F]{2})+$/.test(s)),
  // Hex of an odd length, or not hex at all.
  fc
    .stringMatching(/^[0-9a-f]{1,129}$/)
    .filter((s) => s.length % 2 === 1)
    .map((s) => `0x${s}`),
  fc.constant('0x'),
  fc.constant(`0x${'zz'.repeat(65)}`),
  // Longer than 8,192 bytes (still inside the relay's message limit).
  fc.integer({ min: 8_193, max: 12_000 }).map((bytes) => `0x${'ab'.repeat(bytes)}`),
  fc.constantFrom(null, 42, true, [], {}, ['0x12']),
  fc.constant({ signature: `0x${'11'.repeat(65)}` }),
)

describe('issue 27: results over the relay are checked', () => {
  it('property: personal_sign answered with no signature rejects WALLET_ERROR; the next signMessage recovers to the wallet', async () => {
    let bad: unknown = null
    let honest = false
    const client = dappClient()
    const flow = await client.pair({ chains: [CHAIN], metadata: DAPP_METADATA })
    const wallet = answeringWallet({
      namespaces: () => evmNamespaces([`${CHAIN}:${evm.address}`]),
      answer: ({ params }) =>
        honest ? evm.signMessage({ message: { raw: (params as [Hex])[0] } }) : bad,
    })
    await wallet.pairAndApprove(flow.uri as string)
    await flow.approval

    await fc.assert(
      fc.asyncProperty(badEvmSignature, async (answered) => {
        bad = answered
        honest = false
        expect(await codeOf(client.signMessage('Sign in'))).toBe('WALLET_ERROR')
        expect(client.getView()).toMatchObject({ isConnected: true, isBusy: false, canSign: true })
      }),
      { numRuns: 25 },
    )
    honest = true
    const signature = await client.signMessage('Sign in')
    expect(await recoverMessageAddress({ message: 'Sign in', signature: signature as Hex })).toBe(
      evm.address,
    )
  }, 120_000)
})

describe('issue 27: what a wallet may answer over the relay', () => {
  it('an ERC-1271 / ERC-6492 length signature (whole bytes, ≤ 8,192) is returned; 8,193 bytes is WALLET_ERROR', async () => {
    let answered = `0x${'5a'.repeat(600)}`
    const client = dappClient()
    const flow = await client.pair({ chains: [CHAIN], metadata: DAPP_METADATA })
    const wallet = answeringWallet({
      namespaces: () => evmNamespaces([`${CHAIN}:${evm.address}`]),
      answer: () => answered,
    })
    await wallet.pairAndApprove(flow.uri as string)
    await flow.approval
    expect(await client.signMessage('Sign in')).toBe(answered)
    answered = `0x${'5a'.repeat(8_192)}`
    expect(await client.signMessage('Sign in')).toBe(answered)
    answered = `0x${'5a'.repeat(8_193)}`
    expect(await codeOf(client.signMessage('Sign in'))).toBe('WALLET_ERROR')
  }, 60_000)

  it('property: solana_signMessage answered with no 64-byte base58 signature rejects WALLET_ERROR; the next one verifies', async () => {
    let bad: unknown = null
    let honest = false
    const client = dappClient()
    const flow = await client.pair({ namespace: 'solana', metadata: DAPP_METADATA })
    const wallet = answeringWallet({
      namespaces: () => ({ solana: { accounts: [`${SOLANA_CHAIN}:${solanaAddress}`] } }),
      answer: ({ params }) =>
        honest
          ? {
              signature: base58.encode(
                ed25519.sign(base58.decode((params as { message: string }).message), solanaSecret),
              ),
            }
          : bad,
    })
    await wallet.pairAndApprove(flow.uri as string)
    await flow.approval
    const badSolana = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 63 }).map((b) => ({ signature: base58.encode(b) })),
      fc
        .uint8Array({ minLength: 65, maxLength: 200 })
        .map((b) => ({ signature: base58.encode(b) })),
      fc.constant({ signature: '0OIl'.repeat(22) }),
      // Shrunk on the code before the fix: 65 ones is 49 bytes of base58, taken as a signature.
      fc.constant({ signature: '1'.repeat(65) }),
      fc.constant({ signature: 'a'.repeat(20_000) }),
      fc.constantFrom(null, 'x', [], {}, { signature: 42 }),
      fc.uint8Array({ minLength: 64, maxLength: 64 }).map((b) => base58.encode(b)), // not an object
    )
    await fc.assert(
      fc.asyncProperty(badSolana, async (answered) => {
        bad = answered
        expect(await codeOf(client.signMessage('Sign in'))).toBe('WALLET_ERROR')
        expect(client.getView()).toMatchObject({ isConnected: true, canSign: true })
      }),
      { numRuns: 15 },
    )
    honest = true
    const signature = await client.signMessage('Sign in')
    expect(
      ed25519.verify(
        base58.decode(signature),
        new TextEncoder().encode('Sign in'),
        base58.decode(solanaAddress),
      ),
    ).toBe(true)
  }, 120_000)
})

describe('issue 27: the account changes while a signature is asked over the relay', () => {
  const other = privateKeyToAccount(
    '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  )
  const accountsChanged = (data: unknown, chainId = CHAIN) => ({
    chainId,
    event: { name: 'accountsChanged', data },
  })

  it('scr_sessionEvent accountsChanged during personal_sign rejects ACCOUNT_CHANGED; the view and the next signature are the new account', async () => {
    let release: () => void = () => {}
    const client = dappClient()
    const flow = await client.pair({ chains: [CHAIN], metadata: DAPP_METADATA })
    const wallet = answeringWallet({
      namespaces: () => evmNamespaces([`${CHAIN}:${evm.address}`, `${CHAIN}:${other.address}`]),
      // The wallet signs with the account the request names, once the user clicks.
      answer: async ({ params }) => {
        await new Promise<void>((resolve) => {
          release = resolve
        })
        const [raw, address] = params as [Hex, string]
        const signer = address.toLowerCase() === other.address.toLowerCase() ? other : evm
        return signer.signMessage({ message: { raw } })
      },
    })
    await wallet.pairAndApprove(flow.uri as string)
    await flow.approval
    expect(client.getView().address).toBe(evm.address)

    const signing = codeOf(client.signMessage('Sign in'))
    await expect.poll(() => wallet.requests.length).toBe(1)
    await wallet.emit(accountsChanged([other.address, evm.address]))
    expect(await signing).toBe('ACCOUNT_CHANGED')
    expect(client.getView()).toMatchObject({ address: other.address, isBusy: false })
    expect(client.getConnection()?.accounts).toEqual([other.address, evm.address])
    release() // the wallet answers late: nothing changes

    const next = client.signMessage('Sign in')
    await expect.poll(() => wallet.requests.length).toBe(2)
    expect(wallet.requests[1]?.params).toEqual([expect.any(String), other.address])
    release()
    expect(
      await recoverMessageAddress({ message: 'Sign in', signature: (await next) as Hex }),
    ).toBe(other.address)
  }, 60_000)

  it('property: an accountsChanged that is not valid is dropped; the signature resolves and the account stays', async () => {
    let release: () => void = () => {}
    const client = dappClient()
    const flow = await client.pair({ chains: [CHAIN], metadata: DAPP_METADATA })
    const wallet = answeringWallet({
      namespaces: () => evmNamespaces([`${CHAIN}:${evm.address}`]),
      answer: async ({ params }) => {
        await new Promise<void>((resolve) => {
          release = resolve
        })
        return evm.signMessage({ message: { raw: (params as [Hex])[0] } })
      },
    })
    await wallet.pairAndApprove(flow.uri as string)
    await flow.approval
    const badEvent = fc.oneof(
      fc.constant(accountsChanged(['not-an-address'])),
      fc.constant(accountsChanged(other.address)), // a string, not a list
      fc.constant(accountsChanged([badChecksum(other.address)])),
      fc.constant(accountsChanged([other.address], 'eip155:0x1')),
      fc.constant(accountsChanged([solanaAddress])),
      fc.constant({ chainId: CHAIN, event: { name: 'chainChanged', data: 'eip155:1' } }),
      fc.constantFrom(null, 'accountsChanged', {}),
    )
    let asked = 0
    await fc.assert(
      fc.asyncProperty(badEvent, async (event) => {
        const signing = client.signMessage('Sign in')
        asked += 1
        await expect.poll(() => wallet.requests.length).toBe(asked)
        await wallet.emit(event)
        // The event crosses the relay before the wallet answers (nothing to observe: it is dropped).
        await new Promise((resolve) => setTimeout(resolve, 100))
        release()
        const signature = (await signing) as Hex
        expect(await recoverMessageAddress({ message: 'Sign in', signature })).toBe(evm.address)
        expect(client.getView().address).toBe(evm.address)
      }),
      { numRuns: 10 },
    )
  }, 60_000)
})

describe('issue 27: scope-connect/wallet tells the dApp its accounts changed', () => {
  it('changeAccounts() while a signature is asked: the dApp rejects ACCOUNT_CHANGED and asks the new account next', async () => {
    const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    let click: (decision: 'approve') => void = () => {}
    const simulator = walletSimulator(server, {
      decide: () =>
        new Promise((resolve) => {
          click = resolve
        }),
    })
    cleanups.push(() => simulator.close())
    const client = dappClient()
    const flow = await client.pair({ chains: [CHAIN], metadata: DAPP_METADATA })
    const { session } = await simulator.pairAndApprove(flow.uri as string)
    await flow.approval

    const signing = codeOf(client.signMessage('Sign in'))
    await expect.poll(() => simulator.requests.length).toBe(1)
    await simulator.wallet.changeAccounts(session.id, CHAIN, [other])
    expect(await signing).toBe('ACCOUNT_CHANGED')
    expect(client.getView().address).toBe(other)
    expect(simulator.wallet.sessions()[0]?.namespaces.eip155?.accounts[0]).toBe(`${CHAIN}:${other}`)
    click('approve')

    const next = client.signMessage('Sign in')
    await expect.poll(() => simulator.requests.length).toBe(2)
    expect(simulator.requests[1]?.params).toEqual([expect.any(String), other])
    click('approve')
    expect(await next).toMatch(/^0x[0-9a-f]{130}$/)

    // A chain the session does not have, or no account: refused before anything is sent.
    const refused = await simulator.wallet
      .changeAccounts(session.id, 'eip155:5', [other])
      .catch((error: unknown) => error)
    expect(isAppError(refused, 'INVALID_CONFIG')).toBe(true)
    expect(
      isAppError(
        await simulator.wallet.changeAccounts(session.id, CHAIN, []).catch((e: unknown) => e),
        'INVALID_CONFIG',
      ),
    ).toBe(true)
  }, 60_000)
})
