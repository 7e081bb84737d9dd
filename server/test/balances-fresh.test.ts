import { BalanceResponseSchema, TransactionStatusResponseSchema } from 'scope-connect/wire'
import { type Address, createPublicClient, type Hex, http, parseGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningAnvil, startAnvil } from '../../test/support/anvil'
import { compileSolidity } from '../../test/support/compile-solidity'
import { ANVIL_KEY_1, keyWallet } from '../../test/support/evm-transactions'
import { createChainRegistry } from '../src/chains'
import { call } from './support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from './support/server'

// Issue 31 item 1: a receipt ends the per-block balance cache of the accounts it touched, so the
// read after it answers the receipt's block (or a later one), not the block in hand before it.
const CHAIN = 'eip155:31337'
const SENDER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const RECIPIENT: Address = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const TOKEN_HOLDER: Address = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65'

let anvil: RunningAnvil
let server: TestServer
let token: Address
const rpcCalls: string[] = []
const tokenArtifact = compileSolidity(
  new URL('../../test/wagmi/fixtures/TestToken.sol', import.meta.url),
  'TestToken',
)

beforeAll(async () => {
  anvil = await startAnvil()
  // 12 s blocks: the block number is kept 3 s (block-clock.ts), the window a stale read fell in.
  const networks = [{ chainId: CHAIN, rpcUrl: anvil.rpcUrl, blockTimeMs: 12_000 }]
  const counting: typeof fetch = (input, init) => {
    const body = JSON.parse(String(init?.body)) as { method: string } | { method: string }[]
    for (const one of [body].flat()) rpcCalls.push(one.method)
    return fetch(input, init)
  }
  server = await startTestServer({
    projects: { projects: [{ ...TEST_PROJECT, networks }] },
    chains: createChainRegistry(networks, { fetch: counting }),
    transactions: { blockPollMs: 100 },
  })
  const wallet = keyWallet(anvil.rpcUrl)
  const deploy = await wallet.deployContract({
    abi: tokenArtifact.abi,
    bytecode: tokenArtifact.bytecode,
    args: [SENDER, 10n ** 24n],
    chain: null,
  })
  const receipt = await chain().waitForTransactionReceipt({ hash: deploy })
  token = receipt.contractAddress!
})
afterAll(async () => {
  await server?.close()
  await anvil?.stop()
})

const chain = () => createPublicClient({ transport: http(anvil.rpcUrl) })

async function balance(account: Address, tokenAddress = 'native') {
  const answer = await call(
    server.baseUrl,
    `/balances?${new URLSearchParams({ chainId: CHAIN, tokenAddress, account })}`,
    { headers: { 'x-app-key': 'test-app-key' } },
  )
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return BalanceResponseSchema.parse(answer.body)
}

/** The backend's status read of `hash` until it reads confirmed (the receipt, as a Client's wait). */
async function confirmed(hash: Hex) {
  for (;;) {
    const answer = await call(
      server.baseUrl,
      `/transactions?${new URLSearchParams({ chainId: CHAIN, hash })}`,
      { headers: { 'x-app-key': 'test-app-key' } },
    )
    const body = TransactionStatusResponseSchema.parse(answer.body)
    if (body.status === 'confirmed') return BigInt(body.blockNumber!)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const fees = { maxPriorityFeePerGas: parseGwei('1'), maxFeePerGas: parseGwei('10') }

describe('balances after a confirmed transaction', () => {
  it('native: sender and recipient read at the receipt block at once, for one upstream call each', async () => {
    const before = await balance(RECIPIENT)
    await balance(SENDER)
    const hash = await keyWallet(anvil.rpcUrl).sendTransaction({
      to: RECIPIENT,
      value: 12_345n,
      chain: null,
      gas: 21_000n,
      ...fees,
    })
    const block = await confirmed(hash)
    expect(block).toBeGreaterThan(BigInt(before.blockNumber!))
    rpcCalls.length = 0
    const after = await balance(RECIPIENT)
    expect(BigInt(after.blockNumber!)).toBeGreaterThanOrEqual(block)
    expect(after.raw).toBe(String(BigInt(before.raw) + 12_345n))
    // The block number came with the receipt: the read itself asked no eth_blockNumber.
    expect(rpcCalls).toEqual(['eth_getBalance'])
    const sender = await balance(SENDER)
    expect(sender.raw).toBe(String(await chain().getBalance({ address: SENDER })))
  })

  it('ERC-20: the parties of the Transfer log read at the receipt block', async () => {
    const before = await balance(TOKEN_HOLDER, token)
    expect(before.raw).toBe('0')
    const hash = await keyWallet(anvil.rpcUrl).writeContract({
      address: token,
      abi: tokenArtifact.abi,
      functionName: 'transfer',
      args: [TOKEN_HOLDER, 777n],
      chain: null,
      ...fees,
    })
    const block = await confirmed(hash)
    const after = await balance(TOKEN_HOLDER, token)
    expect(after.raw).toBe('777')
    expect(BigInt(after.blockNumber!)).toBeGreaterThanOrEqual(block)
  })

  it('a transaction of other accounts moves the pinned block too, and an account read since stays right', async () => {
    const watched = await balance(RECIPIENT)
    const hash = await keyWallet(anvil.rpcUrl, ANVIL_KEY_1).sendTransaction({
      to: TOKEN_HOLDER,
      value: 1n,
      chain: null,
      gas: 21_000n,
      ...fees,
    })
    const block = await confirmed(hash)
    const again = await balance(RECIPIENT)
    expect(again.raw).toBe(watched.raw)
    expect(BigInt(again.blockNumber!)).toBeGreaterThanOrEqual(block)
    expect((await balance(TOKEN_HOLDER)).raw).toBe(
      String(await chain().getBalance({ address: TOKEN_HOLDER })),
    )
  })
})
