import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ChainInputError, createSolanaAdapter, UpstreamError } from '../../src/chains'
import {
  type SolanaRpcDouble,
  startSolanaRpcDouble,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '../support/solana-rpc-double'
import { randomAddress } from './support/solana-keys'

const CHAIN = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const SLOT = 321_654_987

describe('Solana balances against the JSON-RPC test double', () => {
  let rpc: SolanaRpcDouble
  let adapter: ReturnType<typeof createSolanaAdapter>
  const owner = randomAddress()
  const usdc = randomAddress() // Token program, 6 decimals
  const pyusd = randomAddress() // Token-2022, 6 decimals
  const bonk = randomAddress() // Token program, 5 decimals, owner holds none

  beforeAll(async () => {
    rpc = await startSolanaRpcDouble({
      slot: SLOT,
      mints: {
        [usdc]: { decimals: 6 },
        [pyusd]: { decimals: 6, programId: TOKEN_2022_PROGRAM_ID },
        [bonk]: { decimals: 5 },
      },
    })
    adapter = createSolanaAdapter({ chainId: CHAIN, rpcUrl: rpc.url })
  })
  afterAll(() => rpc?.close())
  beforeEach(() => {
    rpc.calls.length = 0
    rpc.setFailure(undefined)
  })

  const read = (tokenAddress: string, account: string, decimals?: number) =>
    adapter.readBalance({ chainId: CHAIN, tokenAddress, account, decimals })

  it('reads lamports with 9 decimals at the answering slot', async () => {
    rpc.setBalance(owner, 1_500_000_000n)
    expect(await read('native', owner)).toEqual({
      raw: 1_500_000_000n,
      decimals: 9,
      blockNumber: BigInt(SLOT),
    })
    expect(rpc.calls.map((call) => call.method)).toEqual(['getBalance'])
  })

  it('keeps lamports above 2^53 exact', async () => {
    const whale = randomAddress()
    rpc.setBalance(whale, 9_007_199_254_740_993n)
    expect((await read('native', whale)).raw).toBe(9_007_199_254_740_993n)
  })

  it('reads 0 for an address the chain has never seen', async () => {
    expect((await read('native', randomAddress())).raw).toBe(0n)
  })

  it('sums every account of the mint, ignores other mints, takes decimals from the accounts', async () => {
    rpc.setTokenAccounts(owner, [
      { pubkey: randomAddress(), mint: usdc, amount: 1_000_000n },
      { pubkey: randomAddress(), mint: usdc, amount: 250_000n },
      { pubkey: randomAddress(), mint: pyusd, amount: 7n },
    ])
    expect(await read(usdc, owner)).toEqual({
      raw: 1_250_000n,
      decimals: 6,
      blockNumber: BigInt(SLOT),
    })
    expect(rpc.calls.map((call) => call.method)).not.toContain('getAccountInfo')
  })

  it('asks both the Token and the Token-2022 program and sums their pages', async () => {
    const holder = randomAddress()
    rpc.setTokenAccounts(holder, [
      { pubkey: randomAddress(), mint: pyusd, amount: 400n },
      { pubkey: randomAddress(), mint: pyusd, amount: 20n, programId: TOKEN_PROGRAM_ID },
    ])
    expect((await read(pyusd, holder)).raw).toBe(420n)
    const programs = rpc.calls
      .filter((call) => call.method === 'getTokenAccountsByOwner')
      .map((call) => (call.params as [string, { programId: string }])[1].programId)
    expect(programs.sort()).toEqual([TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID].sort())
  })

  it('takes decimals from the mint when the owner has no account for it', async () => {
    expect(await read(bonk, owner)).toEqual({ raw: 0n, decimals: 5, blockNumber: BigInt(SLOT) })
    expect(rpc.calls.map((call) => call.method)).toContain('getAccountInfo')
  })

  it('echoes caller-given decimals without asking the mint', async () => {
    expect(await read(bonk, owner, 8)).toMatchObject({ raw: 0n, decimals: 8 })
    expect(await read(usdc, owner, 2)).toMatchObject({ raw: 1_250_000n, decimals: 2 })
    expect(rpc.calls.map((call) => call.method)).not.toContain('getAccountInfo')
  })

  it('rejects a mint that does not exist with ChainInputError', async () => {
    await expect(read(randomAddress(), owner)).rejects.toBeInstanceOf(ChainInputError)
  })

  it.each([
    ['account', 'native', 'not-base58-0OIl', undefined],
    ['short account', 'native', '1111111111', undefined],
    ['mint', 'USDC', randomAddress(), undefined],
    ['decimals', 'native', randomAddress(), -1],
  ])(
    'rejects a malformed %s with ChainInputError before any RPC call',
    async (_, token, account, decimals) => {
      await expect(read(token, account, decimals)).rejects.toBeInstanceOf(ChainInputError)
      expect(rpc.calls).toEqual([])
    },
  )

  it('maps a node-side JSON-RPC error to UpstreamError with its code', async () => {
    rpc.setFailure({ code: -32005, message: 'Node is behind by 42 slots' })
    const error = await read('native', owner).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as Error).message).toContain('-32005')
  })

  it('maps JSON-RPC invalid params (-32602) to ChainInputError', async () => {
    rpc.setFailure({ code: -32602, message: 'Invalid param: WrongSize' })
    await expect(read('native', owner)).rejects.toBeInstanceOf(ChainInputError)
  })

  it('maps a non-JSON HTTP error page to UpstreamError', async () => {
    const gateway = createSolanaAdapter({
      chainId: CHAIN,
      rpcUrl: rpc.url,
      fetch: async () => new Response('<html>502 Bad Gateway</html>', { status: 502 }),
    })
    const error = await gateway
      .readBalance({ chainId: CHAIN, tokenAddress: 'native', account: owner })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as Error).message).toContain('502')
  })

  it('needs an rpcUrl for balances and says so', async () => {
    const offline = createSolanaAdapter({ chainId: CHAIN })
    await expect(
      offline.readBalance({ chainId: CHAIN, tokenAddress: 'native', account: owner }),
    ).rejects.toThrow(/rpcUrl/)
  })
})

describe('the Solana JSON-RPC test double itself', () => {
  let rpc: SolanaRpcDouble
  beforeAll(async () => {
    rpc = await startSolanaRpcDouble({ slot: 7 })
  })
  afterAll(() => rpc?.close())

  const post = async (body: unknown) => {
    const response = await fetch(rpc.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: await response.json() }
  }

  it('answers getSlot and errors in the JSON-RPC 2.0 shapes Solana documents', async () => {
    expect(await post({ jsonrpc: '2.0', id: 1, method: 'getSlot' })).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', result: 7, id: 1 },
    })
    expect(
      (await post({ jsonrpc: '2.0', id: 2, method: 'getBalance', params: ['xyz'] })).body,
    ).toEqual({
      jsonrpc: '2.0',
      error: { code: -32602, message: 'Invalid param: WrongSize' },
      id: 2,
    })
    expect((await post({ jsonrpc: '2.0', id: 3, method: 'getBlock', params: [] })).body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32601, message: 'Method not found' },
      id: 3,
    })
  })

  it('rejects an unknown token program id like a real node', async () => {
    const { body } = await post({
      jsonrpc: '2.0',
      id: 4,
      method: 'getTokenAccountsByOwner',
      params: [randomAddress(), { programId: randomAddress() }, { encoding: 'jsonParsed' }],
    })
    expect(body.error).toEqual({
      code: -32602,
      message: 'Invalid param: unrecognized Token program id',
    })
  })
})
