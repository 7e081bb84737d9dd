import { TransactionStatusResponseSchema } from 'scope-connect/wire'
import { type Hex, parseGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningAnvil, startAnvil } from '../../test/support/anvil'
import { keyWallet, revertingInitCode, rpc } from '../../test/support/evm-transactions'
import { call, codeOf } from './support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from './support/server'
import { slowNode } from './support/slow-node'

const CHAIN = 'eip155:31337'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`

let anvil: RunningAnvil
let server: TestServer
const rpcCalls: string[] = []
let upstreamDelayMs = 0

// Mining by hand (`evm_mine`): a transaction stays pending until the test mines it.
beforeAll(async () => {
  anvil = await startAnvil({ args: ['--no-mining'] })
  const networks = [
    { chainId: 'eip155:1', rpcUrl: 'http://127.0.0.1:9' }, // nothing listens: upstream failure
    { chainId: CHAIN, rpcUrl: anvil.rpcUrl },
  ]
  const counting: typeof fetch = async (input, init) => {
    rpcCalls.push(String(JSON.parse(String(init?.body)).method))
    // A slow node, as a socket is: the server's abort (its timeout) ends the wait at once.
    if (upstreamDelayMs > 0) await slowNode(upstreamDelayMs, init?.signal)
    return fetch(input, init)
  }
  server = await startTestServer({
    projects: { projects: [{ ...TEST_PROJECT, networks }] },
    // A 1 s upstream timeout (default 3 s): the slow node’s 502 comes in about 2 s, not 8.
    transactions: { blockPollMs: 100, timeoutMs: 1_000, fetch: counting },
  })
})
afterAll(async () => {
  await server?.close()
  await anvil?.stop()
})

const status = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  call(server.baseUrl, `/transactions?${new URLSearchParams(query)}`, {
    headers: { 'x-app-key': 'test-app-key', ...headers },
  })
const mine = () => rpc(anvil.rpcUrl, 'evm_mine')
const send = (fees: { maxFeePerGas?: bigint; nonce?: number } = {}) =>
  keyWallet(anvil.rpcUrl).sendTransaction({
    to: RECIPIENT,
    value: 1n,
    chain: null,
    maxPriorityFeePerGas: parseGwei('1'),
    maxFeePerGas: fees.maxFeePerGas ?? parseGwei('10'),
    gas: 21_000n,
    ...(fees.nonce === undefined ? {} : { nonce: fees.nonce }),
  })

describe('GET /transactions', () => {
  it('default: a transaction reads pending, then confirmed with its block and confirmations', async () => {
    const hash = await send()
    const pending = await status({ chainId: CHAIN, hash })
    expect(pending.status).toBe(200)
    expect(TransactionStatusResponseSchema.parse(pending.body)).toEqual({
      chainId: CHAIN,
      hash,
      status: 'pending',
    })
    expect(pending.headers.get('etag')).toMatch(/^"[\w-]{16}"$/)
    await mine()
    const mined = TransactionStatusResponseSchema.parse(
      (await status({ chainId: CHAIN, hash })).body,
    )
    expect(mined).toMatchObject({ status: 'confirmed', confirmations: 1 })
    await mine()
    const deeper = TransactionStatusResponseSchema.parse(
      (await status({ chainId: CHAIN, hash })).body,
    )
    expect(deeper).toMatchObject({
      status: 'confirmed',
      confirmations: 2,
      blockNumber: mined.blockNumber,
    })
  })

  it('behavior: a long-poll is answered by the next block, and 304 at the end of a quiet wait', async () => {
    const hash = await send()
    const first = await status({ chainId: CHAIN, hash })
    const etag = first.headers.get('etag')!
    const quiet = await status({ chainId: CHAIN, hash, waitMs: '300' }, { 'if-none-match': etag })
    expect(quiet.status).toBe(304)
    expect(quiet.headers.get('etag')).toBe(etag)
    const started = Date.now()
    const waiting = status({ chainId: CHAIN, hash, waitMs: '10000' }, { 'if-none-match': etag })
    await new Promise((resolve) => setTimeout(resolve, 200))
    await mine()
    const answer = await waiting
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ status: 'confirmed', confirmations: 1 })
    expect(answer.headers.get('etag')).not.toBe(etag)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('behavior: a reverted transaction reads reverted, with the reason the node replays', async () => {
    const hash = await keyWallet(anvil.rpcUrl).sendTransaction({
      data: revertingInitCode('nope'),
      gas: 100_000n,
      chain: null,
    })
    await mine()
    const answer = await status({ chainId: CHAIN, hash })
    expect(answer.body).toMatchObject({
      status: 'reverted',
      confirmations: 1,
      revertReason: 'nope',
    })
  })

  it('behavior: a replacement (same sender and nonce, higher fee) names the new hash', async () => {
    const original = await send({ maxFeePerGas: parseGwei('5') })
    // The backend sees it pending first: that is when it learns the sender and nonce.
    expect((await status({ chainId: CHAIN, hash: original })).body).toMatchObject({
      status: 'pending',
    })
    const { nonce } = (await keyWallet(anvil.rpcUrl).request({
      method: 'eth_getTransactionByHash',
      params: [original],
    } as never)) as { nonce: Hex }
    const replacement = await send({ maxFeePerGas: parseGwei('50'), nonce: Number(nonce) })
    expect(replacement).not.toBe(original)
    await mine()
    const answer = await status({ chainId: CHAIN, hash: original })
    expect(answer.body).toEqual({
      chainId: CHAIN,
      hash: original,
      status: 'unknown',
      replacedBy: replacement,
    })
    expect((await status({ chainId: CHAIN, hash: replacement })).body).toMatchObject({
      status: 'confirmed',
    })
  })

  it('behavior: a hash the node never saw reads unknown; the hash answers lower-cased', async () => {
    const answer = await status({
      chainId: CHAIN,
      hash: UNKNOWN_HASH.toUpperCase().replace('0X', '0x'),
    })
    expect(answer.body).toEqual({ chainId: CHAIN, hash: UNKNOWN_HASH, status: 'unknown' })
  })

  it('behavior: N waiters on one chain cost one head read per interval, not N', async () => {
    const hashes = await Promise.all(
      Array.from({ length: 20 }, (_, index) => `0x${index.toString(16).padStart(64, '0')}`),
    )
    const etags = await Promise.all(
      hashes.map(async (hash) => (await status({ chainId: CHAIN, hash })).headers.get('etag')!),
    )
    rpcCalls.length = 0
    const waits = hashes.map((hash, index) =>
      status({ chainId: CHAIN, hash, waitMs: '1000' }, { 'if-none-match': etags[index]! }),
    )
    const answers = await Promise.all(waits)
    expect(answers.every((answer) => answer.status === 304)).toBe(true)
    const headReads = rpcCalls.filter((method) => method === 'eth_blockNumber').length
    // 1 s of waiting at one read per 100 ms: about 10, whatever the number of waiters.
    expect(headReads).toBeGreaterThan(3)
    expect(headReads).toBeLessThanOrEqual(13)
  })

  it('error: malformed query is 422 naming the field; a chain the project lacks is 403', async () => {
    const bad = await status({ chainId: CHAIN, hash: '0x1234' })
    expect(bad.status).toBe(422)
    expect(codeOf(bad)).toBe('VALIDATION_FAILED')
    const solanaHashOnEvm = await status({ chainId: CHAIN, hash: '5'.repeat(88) })
    expect(solanaHashOnEvm.status).toBe(422)
    const wait = await status({ chainId: CHAIN, hash: UNKNOWN_HASH, waitMs: 'soon' })
    expect(wait.status).toBe(422)
    const disabled = await status({ chainId: 'eip155:8453', hash: UNKNOWN_HASH })
    expect(disabled.status).toBe(403)
    expect(codeOf(disabled)).toBe('CHAIN_NOT_ENABLED')
    const missingKey = await call(
      server.baseUrl,
      `/transactions?chainId=${CHAIN}&hash=${UNKNOWN_HASH}`,
    )
    expect(missingKey.status).toBe(401)
  })

  it('error: a node that does not answer is 502 UPSTREAM_ERROR, and the next read succeeds', async () => {
    const down = await status({ chainId: 'eip155:1', hash: UNKNOWN_HASH })
    expect(down.status).toBe(502)
    expect(codeOf(down)).toBe('UPSTREAM_ERROR')
    upstreamDelayMs = 4_000
    try {
      const slow = await status({ chainId: CHAIN, hash: UNKNOWN_HASH })
      expect(slow.status).toBe(502)
    } finally {
      upstreamDelayMs = 0
    }
    // Reads still in flight at the slow node finish or time out; then reads succeed again.
    let answer = await status({ chainId: CHAIN, hash: UNKNOWN_HASH })
    for (let tries = 0; answer.status !== 200 && tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      answer = await status({ chainId: CHAIN, hash: UNKNOWN_HASH })
    }
    expect(answer.status).toBe(200)
  }, 30_000)

  it('behavior: counted like the other app-key reads (RateLimit headers)', async () => {
    const answer = await status({ chainId: CHAIN, hash: UNKNOWN_HASH })
    expect(answer.headers.get('ratelimit')).toMatch(/appkey/)
  })
})
