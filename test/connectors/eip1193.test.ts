import { createPublicClient, http, recoverMessageAddress, toHex, verifyTypedData } from 'viem'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { Eip1193Connector, InjectedConnector } from '../../src/connectors'
import type { ConnectorEvent } from '../../src/connectors/types'
import { type AppError, isAppError, isProviderRpcError, USER_REJECTED_CODE } from '../../src/errors'
import { buildSignedMessageEnvelope } from '../../src/wire/envelope'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { sharedAnvil } from '../support/shared-services'

/** Anvil's first funded dev account. */
const ANVIL_DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

const anvil = sharedAnvil()
let wallet: TestEip1193Wallet
let connector: Eip1193Connector

afterAll(async () => {})
beforeEach(async () => {
  wallet = await createEip1193TestWallet({ rpcUrl: anvil.rpcUrl, extraChains: [1] })
  connector = new Eip1193Connector('eip6963:io.metamask', () => wallet)
})

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(isAppError(error)).toBe(true)
  return error as AppError
}

describe('Eip1193Connector.connect', () => {
  it('returns the wallet accounts and the node chain as CAIP-2, with the registry wallet id', async () => {
    const connection = await connector.connect()
    expect(connection).toEqual({
      walletId: 'metamask',
      connectorId: 'eip6963:io.metamask',
      namespace: 'eip155',
      chainId: `eip155:${anvil.chainId}`,
      accounts: wallet.accounts.map((account) => account.address),
    })
    expect(connector.getAccounts()).toEqual(connection.accounts)
    expect(connector.getChainId()).toBe(`eip155:${anvil.chainId}`)
    expect(wallet.requests.map((args) => args.method)).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
    ])
  })

  it('leaves walletId undefined for a connector id that names no wallet', async () => {
    const connection = await new InjectedConnector(wallet).connect()
    expect(connection.connectorId).toBe('injected')
    expect(connection.walletId).toBeUndefined()
  })

  it('rejects with USER_REJECTED, keeping the provider error as cause, when the user declines', async () => {
    wallet.rejectNextRequest()
    const error = await rejection(connector.connect())
    expect(error.code).toBe('USER_REJECTED')
    expect(isProviderRpcError(error.cause)).toBe(true)
    expect((error.cause as { code: number }).code).toBe(USER_REJECTED_CODE)
    expect(connector.getAccounts()).toEqual([])
  })

  it('rejects with WALLET_UNAVAILABLE when there is no provider', async () => {
    const missing = new Eip1193Connector('custom', () => undefined)
    expect(missing.isAvailable()).toBe(false)
    expect((await rejection(missing.connect())).code).toBe('WALLET_UNAVAILABLE')
  })

  it('reports availability from the getter, read at call time', () => {
    let present: TestEip1193Wallet | undefined
    const late = new Eip1193Connector('custom', () => present)
    expect(late.isAvailable()).toBe(false)
    present = wallet
    expect(late.isAvailable()).toBe(true)
    expect(late.getProvider()).toBe(wallet)
  })
})

describe('Eip1193Connector.request', () => {
  it('rejects with NOT_CONNECTED before connect()', async () => {
    const error = await rejection(connector.request({ method: 'eth_blockNumber' }))
    expect(error.code).toBe('NOT_CONNECTED')
    expect(wallet.requests).toEqual([])
  })

  it('forwards reads through the wallet to the real node', async () => {
    await connector.connect()
    const balance = await connector.request<string>({
      method: 'eth_getBalance',
      params: [ANVIL_DEV_ACCOUNT, 'latest'],
    })
    const node = createPublicClient({ transport: http(anvil.rpcUrl) })
    expect(BigInt(balance)).toBe(await node.getBalance({ address: ANVIL_DEV_ACCOUNT }))
    expect(BigInt(balance)).toBeGreaterThan(0n)
  })

  it('personal_sign over the session envelope recovers to the connected account', async () => {
    const [address] = (await connector.connect()).accounts
    const message = buildSignedMessageEnvelope('session-1', 'nonce-1', address!, 1_767_225_600_000)
    const signature = await connector.request<`0x${string}`>({
      method: 'personal_sign',
      params: [toHex(message), address],
    })
    expect(await recoverMessageAddress({ message, signature })).toBe(address)
  })

  it('eth_signTypedData_v4 verifies for the connected account', async () => {
    const [address] = (await connector.connect()).accounts
    const typedData = {
      domain: { name: 'scope-connect', version: '1', chainId: anvil.chainId },
      types: { Login: [{ name: 'nonce', type: 'string' }] },
      primaryType: 'Login',
      message: { nonce: 'n-42' },
    } as const
    const signature = await connector.request<`0x${string}`>({
      method: 'eth_signTypedData_v4',
      params: [address, JSON.stringify(typedData)],
    })
    expect(
      await verifyTypedData({ address: address as `0x${string}`, signature, ...typedData }),
    ).toBe(true)
  })

  it('maps a user rejection to USER_REJECTED', async () => {
    const [address] = (await connector.connect()).accounts
    wallet.rejectNextRequest()
    const error = await rejection(
      connector.request({ method: 'personal_sign', params: [toHex('hi'), address] }),
    )
    expect(error.code).toBe('USER_REJECTED')
    expect(isProviderRpcError(error.cause)).toBe(true)
  })

  it('maps any other provider error to WALLET_ERROR with the provider code kept', async () => {
    await connector.connect()
    const unauthorized = await rejection(
      connector.request({ method: 'personal_sign', params: [toHex('hi'), ANVIL_DEV_ACCOUNT] }),
    )
    expect(unauthorized.code).toBe('WALLET_ERROR')
    expect((unauthorized.cause as { code: number }).code).toBe(4100)

    // The node itself refuses an unknown method; the error comes back through the wallet.
    const unknown = await rejection(connector.request({ method: 'eth_noSuchMethod' }))
    expect(unknown.code).toBe('WALLET_ERROR')
    expect(isProviderRpcError(unknown.cause)).toBe(true)
  })
})

describe('Eip1193Connector events', () => {
  it('updates getAccounts and notifies subscribers when the user switches accounts', async () => {
    await connector.connect()
    const events: ConnectorEvent[] = []
    connector.subscribe((event) => events.push(event))
    const second = wallet.accounts[1]!.address
    wallet.switchAccount(second)
    expect(connector.getAccounts()[0]).toBe(second)
    expect(events).toEqual([{ type: 'accountsChanged', accounts: connector.getAccounts() }])
  })

  it('switchChain sends wallet_switchEthereumChain and subscribers get chainChanged as CAIP-2', async () => {
    await connector.connect()
    const events: ConnectorEvent[] = []
    connector.subscribe((event) => events.push(event))
    await connector.switchChain('eip155:1')
    expect(wallet.requests.at(-1)).toEqual({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: '0x1' }],
    })
    expect(events).toEqual([{ type: 'chainChanged', chainId: 'eip155:1' }])
    expect(connector.getChainId()).toBe('eip155:1')
    expect(await connector.request({ method: 'eth_chainId' })).toBe('0x1')
  })

  it('switchChain rejects UNSUPPORTED_CHAIN for a chain the wallet does not know or a non-EVM id', async () => {
    await connector.connect()
    const unknown = await rejection(connector.switchChain('eip155:424242'))
    expect(unknown.code).toBe('UNSUPPORTED_CHAIN')
    expect((unknown.cause as { code: number }).code).toBe(4902)
    const solana = await rejection(connector.switchChain('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'))
    expect(solana.code).toBe('UNSUPPORTED_CHAIN')
    expect(connector.getChainId()).toBe(`eip155:${anvil.chainId}`)
  })

  it('switchChain rejects NOT_CONNECTED before connect()', async () => {
    expect((await rejection(connector.switchChain('eip155:1'))).code).toBe('NOT_CONNECTED')
  })

  it('a wallet-side disconnect clears the accounts and reaches subscribers', async () => {
    await connector.connect()
    const events: ConnectorEvent[] = []
    connector.subscribe((event) => events.push(event))
    wallet.disconnectFromWallet()
    expect(events).toEqual([{ type: 'disconnect' }])
    expect(connector.getAccounts()).toEqual([])
    expect((await rejection(connector.request({ method: 'eth_chainId' }))).code).toBe(
      'NOT_CONNECTED',
    )
  })

  it("ignores MetaMask's 1013 'reconnecting' disconnect", async () => {
    await connector.connect()
    const events: ConnectorEvent[] = []
    connector.subscribe((event) => events.push(event))
    wallet.emit('disconnect', {
      code: 1013,
      message: 'Disconnected from chain. Attempting to connect.',
    })
    expect(events).toEqual([])
    expect(connector.getAccounts()).toHaveLength(2)
  })

  it('keeps notifying the other subscribers when one throws', async () => {
    await connector.connect()
    const events: ConnectorEvent[] = []
    connector.subscribe(() => {
      throw new Error('subscriber bug')
    })
    connector.subscribe((event) => events.push(event))
    wallet.switchAccount(wallet.accounts[1]!.address)
    expect(events).toHaveLength(1)
  })
})

describe('Eip1193Connector listeners and disconnect', () => {
  it('attaches provider listeners for the first subscriber and removes them with the last', () => {
    expect(wallet.listenerCount()).toBe(0)
    const stopA = connector.subscribe(() => {})
    const stopB = connector.subscribe(() => {})
    expect(wallet.listenerCount()).toBe(3)
    stopA()
    expect(wallet.listenerCount()).toBe(3)
    stopB()
    expect(wallet.listenerCount()).toBe(0)
  })

  it('disconnect() revokes permissions, clears the state and leaves no listener on the provider', async () => {
    await connector.connect()
    connector.subscribe(() => {})
    expect(wallet.listenerCount()).toBe(3)
    await connector.disconnect()
    expect(wallet.listenerCount()).toBe(0)
    expect(wallet.requests.at(-1)?.method).toBe('wallet_revokePermissions')
    expect(await wallet.request({ method: 'eth_accounts' })).toEqual([])
    expect(connector.getAccounts()).toEqual([])
    expect(connector.getChainId()).toBeUndefined()
  })

  it('disconnect() succeeds locally when the wallet refuses wallet_revokePermissions', async () => {
    await connector.connect()
    wallet.rejectNextRequest()
    await expect(connector.disconnect()).resolves.toBeUndefined()
    expect(connector.getAccounts()).toEqual([])
    expect(wallet.listenerCount()).toBe(0)
  })

  it('disconnect() without a connection sends nothing', async () => {
    await connector.disconnect()
    expect(wallet.requests).toEqual([])
  })
})
