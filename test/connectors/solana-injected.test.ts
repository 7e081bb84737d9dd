import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { getWallets } from '@wallet-standard/app'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  SOLANA_MAINNET_CHAIN_ID,
  SolanaInjectedConnector,
  type SolanaSignMessageResult,
  type SolanaSignTransactionResult,
} from '../../src/connectors'
import type { ConnectorEvent } from '../../src/connectors/types'
import { type AppError, isAppError, isProviderRpcError } from '../../src/errors'
import { buildSignedMessageEnvelope } from '../../src/wire/envelope'
import {
  createLegacySolanaProvider,
  createTestSolanaWallet,
  type TestSolanaWallet,
} from '../support/wallet-standard-wallet'
import { installBrowserWindow } from './browser-window'

const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const cleanups: (() => void)[] = []

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  vi.unstubAllGlobals()
})

function register(name: string, without?: string[]): TestSolanaWallet {
  const test = createTestSolanaWallet({ name, without })
  cleanups.push(getWallets().register(test.wallet))
  return test
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(isAppError(error)).toBe(true)
  return error as AppError
}

/** A legacy-format transaction with one instruction, `signer` as its only required signer. */
function unsignedTransaction(signer: Uint8Array): Uint8Array {
  const systemProgram = new Uint8Array(32)
  const blockhash = crypto.getRandomValues(new Uint8Array(32))
  const message = Uint8Array.from([
    ...[1, 0, 1], // header: 1 signature, 0 read-only signed, 1 read-only unsigned
    2,
    ...signer,
    ...systemProgram,
    ...blockhash,
    ...[1, 1, 1, 0, 0], // 1 instruction: program #1, accounts [#0], no data
  ])
  return Uint8Array.from([1, ...new Uint8Array(64), ...message])
}

describe('SolanaInjectedConnector on the Wallet Standard', () => {
  it('finds the wallet by its registry name and connects with base58 accounts', async () => {
    const phantom = register('Phantom')
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })
    expect(connector.isAvailable()).toBe(true)
    expect(await connector.connect()).toEqual({
      walletId: 'phantom',
      connectorId: 'solana:phantom',
      namespace: 'solana',
      chainId: SOLANA_MAINNET_CHAIN_ID,
      accounts: [phantom.key.address],
    })
    expect(base58.decode(connector.getAccounts()[0]!)).toEqual(phantom.key.publicKey)
  })

  it('picks the named wallet among several', async () => {
    register('Phantom')
    const solflare = register('Solflare')
    const connection = await new SolanaInjectedConnector({ walletId: 'solflare' }).connect()
    expect(connection.accounts).toEqual([solflare.key.address])
  })

  it('takes an explicit walletName, and without a walletId its id is solana:injected', async () => {
    register('Phantom')
    const custom = register('My Custom Wallet')
    const connector = new SolanaInjectedConnector({ walletName: 'my custom wallet' })
    const connection = await connector.connect()
    expect(connection).toMatchObject({ connectorId: 'solana:injected', walletId: undefined })
    expect(connection.accounts).toEqual([custom.key.address])
  })

  it('signs the session envelope; the signature verifies with ed25519 for the base58 public key', async () => {
    const phantom = register('Phantom')
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })
    const [address] = (await connector.connect()).accounts
    const message = buildSignedMessageEnvelope('s-1', 'n-1', address!, 1_767_225_600_000)
    const result = await connector.request<SolanaSignMessageResult>({
      method: 'solana_signMessage',
      params: { message },
    })
    expect(result.publicKey).toBe(phantom.key.address)
    const valid = ed25519.verify(
      base58.decode(result.signature),
      new TextEncoder().encode(message),
      base58.decode(result.publicKey),
    )
    expect(valid).toBe(true)
  })

  it('signs a serialized transaction on the Wallet Standard chain matching its CAIP-2 id', async () => {
    const phantom = register('Phantom')
    const connector = new SolanaInjectedConnector({ walletId: 'phantom', chainId: DEVNET })
    expect((await connector.connect()).chainId).toBe(DEVNET)
    const unsigned = unsignedTransaction(phantom.key.publicKey)
    const { signedTransaction } = await connector.request<SolanaSignTransactionResult>({
      method: 'solana_signTransaction',
      params: { transaction: base64.encode(unsigned) },
    })
    const signed = base64.decode(signedTransaction)
    const message = unsigned.subarray(65)
    expect(signed.subarray(65)).toEqual(message)
    expect(ed25519.verify(signed.subarray(1, 65), message, phantom.key.publicKey)).toBe(true)
    expect(phantom.lastChain).toBe('solana:devnet')
  })

  it('maps a 4001 rejection and a "user rejected" message to USER_REJECTED, anything else to WALLET_ERROR', async () => {
    const phantom = register('Phantom')
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })

    phantom.rejectNext()
    const onConnect = await failure(connector.connect())
    expect(onConnect.code).toBe('USER_REJECTED')
    expect(isProviderRpcError(onConnect.cause)).toBe(true)

    await connector.connect()
    const sign = { method: 'solana_signMessage', params: { message: 'hi' } }
    phantom.rejectNext(
      Object.assign(new Error('User rejected the request.'), { name: 'WalletSignMessageError' }),
    )
    expect((await failure(connector.request(sign))).code).toBe('USER_REJECTED')

    phantom.rejectNext(new Error('Transaction rejected by the cluster: blockhash not found'))
    expect((await failure(connector.request(sign))).code).toBe('WALLET_ERROR')
  })

  it('rejects NOT_CONNECTED before connect(), and refuses unknown methods and bad params', async () => {
    register('Phantom')
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })
    const sign = { method: 'solana_signMessage', params: { message: 'hi' } }
    expect((await failure(connector.request(sign))).code).toBe('NOT_CONNECTED')
    await connector.connect()
    expect((await failure(connector.request({ method: 'personal_sign' }))).code).toBe(
      'WALLET_ERROR',
    )
    await expect(
      connector.request({ method: 'solana_signMessage', params: { message: 42 } }),
    ).rejects.toBeInstanceOf(TypeError)
    await expect(
      connector.request({ method: 'solana_signTransaction', params: { transaction: '%%%' } }),
    ).rejects.toBeInstanceOf(TypeError)
  })

  it('rejects WALLET_UNAVAILABLE for signTransaction when the wallet lacks the feature', async () => {
    register('Phantom', ['solana:signTransaction'])
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })
    await connector.connect()
    const error = await failure(
      connector.request({ method: 'solana_signTransaction', params: { transaction: 'AA==' } }),
    )
    expect(error.code).toBe('WALLET_UNAVAILABLE')
  })

  it('follows account changes and a wallet-side disconnect', async () => {
    const phantom = register('Phantom')
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })
    await connector.connect()
    const events: ConnectorEvent[] = []
    connector.subscribe((event) => events.push(event))

    const next = phantom.switchToNewAccount()
    expect(connector.getAccounts()[0]).toBe(next.address)
    phantom.disconnectFromWallet()
    expect(events).toEqual([
      { type: 'accountsChanged', accounts: [next.address, expect.any(String)] },
      { type: 'disconnect' },
    ])
    expect(connector.getAccounts()).toEqual([])
    expect(phantom.listenerCount()).toBe(0)
  })

  it('disconnect() calls standard:disconnect, stops listening and clears the accounts', async () => {
    const phantom = register('Phantom')
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })
    await connector.connect()
    expect(phantom.listenerCount()).toBe(1)
    await connector.disconnect()
    expect(phantom.disconnectCalls).toBe(1)
    expect(phantom.listenerCount()).toBe(0)
    expect(connector.getAccounts()).toEqual([])
  })

  it('rejects WALLET_UNAVAILABLE when no matching wallet is registered and no window exists', async () => {
    register('Solflare')
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })
    expect(connector.isAvailable()).toBe(false)
    expect((await failure(connector.connect())).code).toBe('WALLET_UNAVAILABLE')
  })

  it('refuses a chain id that is not Solana CAIP-2', () => {
    expect(() => new SolanaInjectedConnector({ chainId: 'eip155:1' })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_CHAIN' }),
    )
  })
})

describe('SolanaInjectedConnector legacy window provider fallback', () => {
  function installLegacy() {
    const window = installBrowserWindow() as unknown as Record<string, unknown>
    const legacy = createLegacySolanaProvider()
    window.phantom = { solana: legacy }
    return legacy
  }

  it('connects and signs through window.phantom.solana when no standard wallet matches', async () => {
    const legacy = installLegacy()
    const connector = new SolanaInjectedConnector({ walletId: 'phantom' })
    expect(connector.isAvailable()).toBe(true)
    const connection = await connector.connect()
    expect(connection.accounts).toEqual([legacy.key.address])

    const result = await connector.request<SolanaSignMessageResult>({
      method: 'solana_signMessage',
      params: { message: 'hello' },
    })
    const valid = ed25519.verify(
      base58.decode(result.signature),
      new TextEncoder().encode('hello'),
      legacy.key.publicKey,
    )
    expect(valid).toBe(true)
  })

  it('cannot sign (or sign and send) serialized transactions on the legacy path', async () => {
    installLegacy()
    const connector = new SolanaInjectedConnector()
    await connector.connect()
    for (const method of ['solana_signTransaction', 'solana_signAndSendTransaction']) {
      const error = await failure(connector.request({ method, params: { transaction: 'AA==' } }))
      expect(error.code).toBe('WALLET_UNAVAILABLE')
    }
  })

  it('relays accountChanged and disconnect, and removes its listeners on disconnect()', async () => {
    const legacy = installLegacy()
    const connector = new SolanaInjectedConnector()
    await connector.connect()
    const events: ConnectorEvent[] = []
    connector.subscribe((event) => events.push(event))
    legacy.emit('accountChanged', { toBase58: () => 'NewAccount1111111111111111111111' })
    expect(connector.getAccounts()).toEqual(['NewAccount1111111111111111111111'])
    expect(legacy.listenerCount()).toBe(2)
    await connector.disconnect()
    expect(legacy.listenerCount()).toBe(0)
    expect(events).toEqual([
      { type: 'accountsChanged', accounts: ['NewAccount1111111111111111111111'] },
    ])
    expect(legacy.publicKey).toBeNull()
  })

  it('prefers a registered Wallet Standard wallet over the legacy provider', async () => {
    installLegacy()
    const phantom = register('Phantom')
    const connection = await new SolanaInjectedConnector({ walletId: 'phantom' }).connect()
    expect(connection.accounts).toEqual([phantom.key.address])
  })
})
