import {
  type Config,
  createConfig,
  createStorage,
  getAccount,
  readContract,
  signMessage,
  waitForTransactionReceipt,
  writeContract,
} from '@wagmi/core'
import {
  type Address,
  BaseError,
  defineChain,
  erc20Abi,
  http,
  recoverMessageAddress,
  UserRejectedRequestError,
} from 'viem'
import { foundry } from 'viem/chains'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../../src/client'
import { WalletConnectConnector } from '../../src/connectors'
import { type AppError, isAppError } from '../../src/errors'
import { scopeConnect } from '../../src/wagmi'
import { ANVIL_KEY_0 } from '../support/evm-transactions'
import { testWalletConnectOptions } from '../support/walletconnect-wallet'
import { useWalletConnectWorld } from '../support/walletconnect-world'
import { deployTestToken } from './support/token'

// scope-connect inside wagmi over WalletConnect (issue 29, item 3: wagmi follows the Client
// "whatever its path"): a Client with a WalletConnectConnector (the real sign-client on the dApp
// side), the real sign-client wallet on a viem key broadcasting to anvil, the loopback relay DOUBLE
// between them (no WalletConnect relay runs here), the real backend, real `@wagmi/core` and viem.

const CHAIN = 'eip155:31337'
/** Anvil's third account (the wallet is anvil's second). */
const RECIPIENT: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const world = useWalletConnectWorld({ chains: [CHAIN], transactions: { blockPollMs: 100 } })
let token: Address

beforeAll(async () => {
  token = (
    await deployTestToken(world.anvil.rpcUrl, ANVIL_KEY_0, world.wallet.account.address, 10n ** 24n)
  ).address
}, 60_000)

/** A page: a Client with the WalletConnect connector (the wallet pairs from its QR code), in wagmi. */
function openPage(): { client: Client; config: Config } {
  const { client } = world.newClient({
    connectors: [new WalletConnectConnector(testWalletConnectOptions(world.relay.url, [CHAIN]))],
  })
  const anvil = defineChain({ ...foundry, rpcUrls: { default: { http: [world.anvil.rpcUrl] } } })
  const config = createConfig({
    chains: [anvil],
    connectors: [scopeConnect({ client })],
    transports: { [anvil.id]: http(world.anvil.rpcUrl, { retryCount: 0 }) },
    storage: createStorage({ storage: { getItem: () => null, setItem() {}, removeItem() {} } }),
  })
  return { client, config }
}

const until = async (condition: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  )
const tokenBalance = (config: Config, account: Address) =>
  readContract(config, {
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [account],
  })

/** wagmi's `writeContract` (ERC-20 `transfer`), mined; then the Client's own watch settles too. */
async function transfer({ client, config }: { client: Client; config: Config }, amount: bigint) {
  const hash = await writeContract(config, {
    address: token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [RECIPIENT, amount],
  })
  const receipt = await waitForTransactionReceipt(config, { hash, pollingInterval: 50 })
  await until(() => {
    const transaction = client.getView().transaction
    return transaction?.hash === hash && transaction.stage === 'confirmed'
  })
  return receipt
}

describe('scopeConnect over WalletConnect', () => {
  it('default: the Client connects over WalletConnect; wagmi is connected, signs and writes an ERC-20 through the session', async () => {
    const page = openPage()
    const { client, config } = page
    expect(getAccount(config).status).toBe('disconnected')
    const connection = await client.connect()
    expect(connection.chainId).toBe(CHAIN)
    await until(() => getAccount(config).isConnected)
    const me = world.wallet.account.address
    expect(getAccount(config)).toMatchObject({ status: 'connected', address: me, chainId: 31337 })
    expect(getAccount(config).connector?.id).toBe('scopeConnect')

    const from = world.wallet.received.length
    const signature = await signMessage(config, { message: 'wagmi over walletconnect' })
    expect(await recoverMessageAddress({ message: 'wagmi over walletconnect', signature })).toBe(me)

    const before = await tokenBalance(config, me)
    const recipientBefore = await tokenBalance(config, RECIPIENT)
    const receipt = await transfer(page, 4321n)
    expect(receipt.status).toBe('success')
    expect(await tokenBalance(config, me)).toBe(before - 4321n)
    expect(await tokenBalance(config, RECIPIENT)).toBe(recipientBefore + 4321n)
    // Both went to the wallet over the WalletConnect session; the write was to the token.
    expect(world.wallet.received.slice(from)).toEqual(['personal_sign', 'eth_sendTransaction'])
    const [sent] = world.wallet.receivedParams.at(-1) as Array<{ to?: string }>
    expect(sent?.to?.toLowerCase()).toBe(token.toLowerCase())
  }, 60_000)

  it('error: the wallet rejects a write over the session → UserRejectedRequestError (the AppError as its cause); the next write works', async () => {
    const page = openPage()
    await page.client.connect()
    await until(() => getAccount(page.config).isConnected)
    world.wallet.requests = 'reject'
    const error = (await failure(transfer(page, 1n))) as BaseError
    expect(error).toBeInstanceOf(BaseError)
    expect(error.walk((e) => e instanceof UserRejectedRequestError)).toBeInstanceOf(
      UserRejectedRequestError,
    )
    expect((error.walk((e) => isAppError(e)) as AppError | null)?.code).toBe('USER_REJECTED')
    expect(getAccount(page.config).isConnected).toBe(true)
    world.wallet.requests = 'approve'
    expect((await transfer(page, 2n)).status).toBe('success')
  }, 60_000)

  it('behavior: the wallet deletes the session → wagmi disconnected; a reconnect through the Client reaches wagmi and writes', async () => {
    const page = openPage()
    await page.client.connect()
    await until(() => getAccount(page.config).isConnected)
    const topic = world.wallet.client.session.getAll().at(-1)?.topic ?? ''
    await world.wallet.deleteSession(topic)
    await until(() => getAccount(page.config).status === 'disconnected')
    expect(getAccount(page.config).address).toBeUndefined()
    expect(page.client.getView().isConnected).toBe(false)
    const refused = (await failure(signMessage(page.config, { message: 'gone' }))) as Error
    expect(refused.name).toBe('ConnectorNotConnectedError')

    // A new session (a new proposal, paired from the new QR code) connects both again.
    await page.client.connect()
    await until(() => getAccount(page.config).isConnected)
    expect(getAccount(page.config).address).toBe(world.wallet.account.address)
    const signature = await signMessage(page.config, { message: 'back' })
    expect(await recoverMessageAddress({ message: 'back', signature })).toBe(
      world.wallet.account.address,
    )
    expect((await transfer(page, 3n)).status).toBe('success')
  }, 60_000)
})
