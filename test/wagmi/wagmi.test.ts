import {
  type Config,
  connect,
  createConfig,
  createStorage,
  disconnect,
  getAccount,
  getBalance,
  readContract,
  reconnect,
  signMessage,
  signTypedData,
  switchChain,
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
  recoverTypedDataAddress,
  UserRejectedRequestError,
} from 'viem'
import { foundry, mainnet } from 'viem/chains'
import { beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client'
import { createMemoryConnectionStore } from '../../src/connection/memory-store'
import type { ConnectionStore } from '../../src/connection/store'
import { Eip1193Connector } from '../../src/connectors/eip1193'
import { type AppError, isAppError } from '../../src/errors'
import { createMemoryTransactionStore } from '../../src/transaction'
import { scopeConnect } from '../../src/wagmi'
import { useBackendWithAnvil } from '../support/backend-with-anvil'
import { createEip1193TestWallet, type TestEip1193Wallet } from '../support/eip1193-wallet'
import { ANVIL_KEY_0, ANVIL_KEY_1 } from '../support/evm-transactions'
import { deployTestToken } from './support/token'

// scope-connect inside wagmi (issue 29, item 3): real `@wagmi/core` and viem, a real anvil, the real
// backend, an EIP-1193 wallet on a real key (anvil's first) connected through the scope-connect
// Client. wagmi's actions follow the Client's connection and the Client follows wagmi's.

const RECIPIENT: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const backend = useBackendWithAnvil({ transactions: { blockPollMs: 100 } })
let token: Address

beforeAll(async () => {
  const holder = (
    await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      privateKeys: [ANVIL_KEY_0],
    })
  ).accounts[0]!.address
  token = (await deployTestToken(backend.anvil.rpcUrl, ANVIL_KEY_1, holder, 10n ** 24n)).address
}, 60_000)

/** A page: a wallet, a Client over it, a wagmi config with the scopeConnect connector. */
interface Page {
  wallet: TestEip1193Wallet
  client: Client
  config: Config
}

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

async function openPage(
  shared: {
    wallet?: TestEip1193Wallet
    connectionStore?: ConnectionStore
    storage?: ReturnType<typeof memoryStorage>
  } = {},
): Promise<Page> {
  const wallet =
    shared.wallet ??
    (await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      privateKeys: [ANVIL_KEY_0],
      extraChains: [1],
    }))
  const client = new Client({
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    connectors: [new Eip1193Connector('metamask', () => wallet)],
    mobile: false,
    connectionStore: shared.connectionStore ?? createMemoryConnectionStore(),
    transactions: { store: createMemoryTransactionStore() },
  })
  const anvil = defineChain({
    ...foundry,
    rpcUrls: { default: { http: [backend.anvil.rpcUrl] } },
  })
  const config = createConfig({
    chains: [anvil, mainnet],
    connectors: [scopeConnect({ client })],
    transports: {
      [anvil.id]: http(backend.anvil.rpcUrl, { retryCount: 0 }),
      [mainnet.id]: http(backend.anvil.rpcUrl, { retryCount: 0 }),
    },
    storage: createStorage({ storage: shared.storage ?? memoryStorage() }),
  })
  return { wallet, client, config }
}

const until = async (condition: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
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

/**
 * wagmi's `writeContract` (ERC-20 `transfer`) and `waitForTransactionReceipt` (the chain's RPC);
 * then also the Client's own watch of the transaction (through the backend) settles.
 */
async function transfer(page: Pick<Page, 'client' | 'config'>, amount: bigint) {
  const hash = await writeContract(page.config, {
    address: token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [RECIPIENT, amount],
  })
  const receipt = await waitForTransactionReceipt(page.config, { hash, pollingInterval: 50 })
  await until(() => {
    const transaction = page.client.getView().transaction
    return transaction?.hash === hash && transaction.stage === 'confirmed'
  })
  return receipt
}

describe('scopeConnect: wagmi follows the scope-connect Client', () => {
  it('default: connect through the Client; wagmi is connected, reads and writes an ERC-20 through it', async () => {
    const { client, config, wallet } = await openPage()
    expect(getAccount(config).status).toBe('disconnected')
    const connection = await client.connect()
    await until(() => getAccount(config).isConnected)
    const account = getAccount(config)
    expect(account).toMatchObject({ status: 'connected', chainId: 31337 })
    expect(account.address?.toLowerCase()).toBe(connection.accounts[0]?.toLowerCase())
    expect(account.connector?.id).toBe('scopeConnect')
    const me = account.address as Address

    const before = await tokenBalance(config, me)
    const recipientBefore = await tokenBalance(config, RECIPIENT)
    expect(before).toBeGreaterThan(0n)
    const receipt = await transfer({ client, config }, 1234n)
    expect(receipt.status).toBe('success')
    expect(await tokenBalance(config, me)).toBe(before - 1234n)
    expect(await tokenBalance(config, RECIPIENT)).toBe(recipientBefore + 1234n)
    // The wallet was asked through the Client: one eth_sendTransaction to the token.
    const sent = wallet.requests.filter((r) => r.method === 'eth_sendTransaction')
    expect(sent).toHaveLength(1)
    const [request] = (sent[0]?.params ?? []) as Array<{ to?: string }>
    expect(request?.to?.toLowerCase()).toBe(token.toLowerCase())
    // The Client saw it as its own transaction.
    expect(client.getView().transaction?.hash).toBe(receipt.transactionHash)

    const native = await getBalance(config, { address: me })
    expect(native.value).toBeGreaterThan(0n)
    await client.disconnect()
  })

  it('default: a Client connected before the wagmi config exists connects wagmi as it starts', async () => {
    const wallet = await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      privateKeys: [ANVIL_KEY_0],
    })
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      connectors: [new Eip1193Connector('metamask', () => wallet)],
      mobile: false,
      connectionStore: null,
    })
    const connection = await client.connect()
    const config = createConfig({
      chains: [foundry],
      connectors: [scopeConnect({ client })],
      transports: { [foundry.id]: http(backend.anvil.rpcUrl) },
      storage: null,
    })
    await until(() => getAccount(config).isConnected)
    expect(getAccount(config).address?.toLowerCase()).toBe(connection.accounts[0]?.toLowerCase())
    await client.disconnect()
    await until(() => !getAccount(config).isConnected)
  })

  it('default: signMessage and signTypedData through wagmi are signed by the connected key', async () => {
    const { client, config } = await openPage()
    await client.connect()
    await until(() => getAccount(config).isConnected)
    const me = getAccount(config).address as Address
    const signature = await signMessage(config, { message: 'hello from wagmi' })
    expect(await recoverMessageAddress({ message: 'hello from wagmi', signature })).toBe(me)

    const typed = {
      domain: { name: 'Test', version: '1', chainId: 31337 },
      types: {
        Mail: [
          { name: 'contents', type: 'string' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      primaryType: 'Mail',
      message: { contents: 'hi', amount: 5n },
    } as const
    const typedSignature = await signTypedData(config, typed)
    expect(await recoverTypedDataAddress({ ...typed, signature: typedSignature })).toBe(me)
    await client.disconnect()
  })

  it('default: switchChain in wagmi switches the Client and the wallet; a switch in the Client reaches wagmi', async () => {
    const { client, config, wallet } = await openPage()
    await client.connect()
    await until(() => getAccount(config).isConnected)
    const chain = await switchChain(config, { chainId: 1 })
    expect(chain.id).toBe(1)
    expect(client.getView().chainId).toBe('eip155:1')
    expect(wallet.chainId).toBe(1)
    expect(getAccount(config).chainId).toBe(1)

    await client.switchChain('eip155:31337')
    await until(() => getAccount(config).chainId === 31337)
    expect(getAccount(config).status).toBe('connected')
    await client.disconnect()
  })

  it('behavior: disconnect in wagmi leaves the Client disconnected; connect in wagmi connects the Client', async () => {
    const { client, config } = await openPage()
    await client.connect()
    await until(() => getAccount(config).isConnected)
    await disconnect(config)
    expect(getAccount(config).status).toBe('disconnected')
    expect(client.getConnection()).toBeNull()
    expect(client.getView().isConnected).toBe(false)

    const connector = config.connectors[0]!
    const result = await connect(config, { connector })
    expect(result.chainId).toBe(31337)
    expect(client.getConnection()?.accounts[0]?.toLowerCase()).toBe(
      result.accounts[0]?.toLowerCase(),
    )
    expect((await transfer({ client, config }, 1n)).status).toBe('success')
    await client.disconnect()
  })

  it('behavior: disconnect in the Client leaves wagmi disconnected; a new Client connect reaches wagmi again', async () => {
    const { client, config } = await openPage()
    await client.connect()
    await until(() => getAccount(config).isConnected)
    await client.disconnect()
    await until(() => getAccount(config).status === 'disconnected')
    expect(getAccount(config).address).toBeUndefined()
    const error = await failure(
      writeContract(config, {
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [RECIPIENT, 1n],
      }),
    )
    expect((error as Error).name).toBe('ConnectorNotConnectedError')

    await client.connect()
    await until(() => getAccount(config).isConnected)
    expect((await transfer({ client, config }, 1n)).status).toBe('success')
    await client.disconnect()
  })

  it('behavior: a reload (a new Client and a new wagmi config over the same storage) reconnects both without a prompt', async () => {
    const connectionStore = createMemoryConnectionStore()
    const storage = memoryStorage()
    const first = await openPage({ connectionStore, storage })
    await first.client.connect()
    await until(() => getAccount(first.config).isConnected)
    const address = getAccount(first.config).address

    const after = await openPage({ wallet: first.wallet, connectionStore, storage })
    const from = after.wallet.requests.length
    expect(getAccount(after.config).isConnected).toBe(false)
    const connections = await reconnect(after.config)
    expect(connections).toHaveLength(1)
    expect(getAccount(after.config)).toMatchObject({ status: 'connected', address, chainId: 31337 })
    expect(after.client.getView()).toMatchObject({ status: 'connected', chainId: 'eip155:31337' })
    // Silent: the wallet was asked for its standing authorization only.
    expect(after.wallet.requests.slice(from).map((r) => r.method)).not.toContain(
      'eth_requestAccounts',
    )
    expect((await transfer(after, 1n)).status).toBe('success')
    await after.client.disconnect()

    // Nothing stored after a disconnect: the next reload stays disconnected.
    const third = await openPage({ wallet: first.wallet, connectionStore, storage })
    expect(await reconnect(third.config)).toEqual([])
    expect(getAccount(third.config).status).toBe('disconnected')
    expect(third.client.getConnection()).toBeNull()
  })
})

describe('scopeConnect: failure twins', () => {
  it('error: the wallet rejects a write → UserRejectedRequestError (the AppError as its cause); the next write works', async () => {
    const { client, config, wallet } = await openPage()
    await client.connect()
    await until(() => getAccount(config).isConnected)
    wallet.rejectNextRequest('eth_sendTransaction')
    const error = await failure(transfer({ client, config }, 1n))
    expect(error).toBeInstanceOf(BaseError)
    const rejected = (error as BaseError).walk((e) => e instanceof UserRejectedRequestError)
    expect(rejected).toBeInstanceOf(UserRejectedRequestError)
    const appError = (error as BaseError).walk((e) => isAppError(e)) as AppError | null
    expect(appError?.code).toBe('USER_REJECTED')
    expect(getAccount(config).isConnected).toBe(true)
    expect((await transfer({ client, config }, 2n)).status).toBe('success')
    await client.disconnect()
  })

  it('error: the wallet rejects a signature and a chain switch → UserRejectedRequestError; the next ones work', async () => {
    const { client, config, wallet } = await openPage()
    await client.connect()
    await until(() => getAccount(config).isConnected)
    wallet.rejectNextRequest('personal_sign')
    const signError = (await failure(signMessage(config, { message: 'no' }))) as BaseError
    expect(signError.walk((e) => e instanceof UserRejectedRequestError)).toBeTruthy()
    wallet.rejectNextRequest('wallet_switchEthereumChain')
    const switchError = (await failure(switchChain(config, { chainId: 1 }))) as Error
    expect(switchError).toBeInstanceOf(UserRejectedRequestError)
    expect(getAccount(config).chainId).toBe(31337)
    expect(client.getView().chainId).toBe('eip155:31337')
    const signature = await signMessage(config, { message: 'yes' })
    expect(await recoverMessageAddress({ message: 'yes', signature })).toBe(
      getAccount(config).address,
    )
    await client.disconnect()
  })

  it('error: a disconnect while the wallet holds a write → the write rejects, both sides disconnected; reconnecting and writing works', async () => {
    const { client, config, wallet } = await openPage()
    await client.connect()
    await until(() => getAccount(config).isConnected)
    const release = wallet.holdNextRequest()
    const pending = failure(transfer({ client, config }, 1n))
    await until(() => client.getView().isBusy)
    await disconnect(config)
    const error = (await pending) as BaseError
    expect(error).toBeInstanceOf(BaseError)
    const appError = error.walk((e) => isAppError(e)) as AppError | null
    expect(appError?.code).toBe('ABORTED')
    expect(getAccount(config).status).toBe('disconnected')
    expect(client.getConnection()).toBeNull()
    release()

    await connect(config, { connector: config.connectors[0]! })
    expect((await transfer({ client, config }, 3n)).status).toBe('success')
    await client.disconnect()
  })

  it('error: a chain wagmi is not configured for → SwitchChainError, nothing asked; the connection stays', async () => {
    const { client, config, wallet } = await openPage()
    await client.connect()
    await until(() => getAccount(config).isConnected)
    const from = wallet.requests.length
    const connector = config.connectors[0]!
    const error = (await failure(
      (connector.switchChain as NonNullable<typeof connector.switchChain>)({ chainId: 59144 }),
    )) as Error
    expect(error.name).toBe('SwitchChainError')
    expect(wallet.requests.length).toBe(from)
    expect(getAccount(config)).toMatchObject({ status: 'connected', chainId: 31337 })
    await client.disconnect()
  })

  it('error: the peers missing → connect() rejects with AppError WALLET_UNAVAILABLE naming them; with them the next connector works', async () => {
    const wallet = await createEip1193TestWallet({
      rpcUrl: backend.anvil.rpcUrl,
      privateKeys: [ANVIL_KEY_0],
    })
    const client = new Client({
      baseUrl: backend.server.baseUrl,
      appKey: backend.server.appKey,
      connectors: [new Eip1193Connector('metamask', () => wallet)],
      mobile: false,
      connectionStore: null,
    })
    const missing = () =>
      Promise.reject(new Error("Cannot find package '@wagmi/core' imported from scope-connect"))
    const config = createConfig({
      chains: [foundry],
      connectors: [scopeConnect({ client, importPeer: missing })],
      transports: { [foundry.id]: http(backend.anvil.rpcUrl) },
      storage: null,
    })
    const error = (await failure(connect(config, { connector: config.connectors[0]! }))) as AppError
    expect(isAppError(error, 'WALLET_UNAVAILABLE')).toBe(true)
    expect(error.message).toContain('npm install @wagmi/core viem')
    expect(client.getConnection()).toBeNull()

    const working = createConfig({
      chains: [foundry],
      connectors: [scopeConnect({ client })],
      transports: { [foundry.id]: http(backend.anvil.rpcUrl) },
      storage: null,
    })
    const result = await connect(working, { connector: working.connectors[0]! })
    expect(result.accounts).toHaveLength(1)
    await client.disconnect()
  })

  it("error: an unreachable RPC for reads → the provider's read rejects with the transport's error; the wallet calls still work", async () => {
    const { client, wallet } = await openPage()
    const config = createConfig({
      chains: [foundry],
      connectors: [scopeConnect({ client })],
      transports: { [foundry.id]: http('http://127.0.0.1:9/', { retryCount: 0 }) },
      storage: null,
    })
    await client.connect()
    await until(() => getAccount(config).isConnected)
    const provider = await config.connectors[0]!.getProvider()
    const read = (await failure(
      (provider as { request(a: unknown): Promise<unknown> }).request({
        method: 'eth_getBalance',
        params: [getAccount(config).address, 'latest'],
      }),
    )) as Error
    expect(read).toBeInstanceOf(BaseError)
    expect(read.name).toBe('HttpRequestError')
    // The connection is untouched: the wallet signs, and the account and chain stay.
    const signature = await signMessage(config, { message: 'still here' })
    expect(await recoverMessageAddress({ message: 'still here', signature })).toBe(
      getAccount(config).address,
    )
    expect(wallet.requests.at(-1)?.method).toBe('personal_sign')
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    await client.disconnect()
  })

  it('error: scopeConnect without a Client → AppError INVALID_CONFIG naming the field, never a TypeError', () => {
    for (const bad of [undefined, null, {}, { client: {} }, { client: 'x' }]) {
      let thrown: unknown
      try {
        scopeConnect(bad as never)
      } catch (error) {
        thrown = error
      }
      expect(isAppError(thrown, 'INVALID_CONFIG')).toBe(true)
    }
  })
})
