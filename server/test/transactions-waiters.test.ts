import { setMaxListeners } from 'node:events'
import { API_PREFIX } from 'scope-connect/wire'
import { keccak256, parseGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningAnvil, startAnvil } from '../../test/support/anvil'
import { ANVIL_KEY_1, keyWallet, rpc } from '../../test/support/evm-transactions'
import { createMemoryTransactionFeed } from '../src/transactions/feed'
import { statusResponseEtag, toStatusResponse } from '../src/transactions/report'
import { createTransactionService } from '../src/transactions/service'
import { call, codeOf } from './support/http'
import { startTestServer, TEST_PROJECT, type TestServer } from './support/server'

// GET /transactions long-polls on anvil (a real chain) behind a counting fetch: the upstream calls
// per new head are the same with 1, 100 or 2,000 waiters (one block read + the receipts of the
// matches), and the waits a caller may hold at once are capped (429 TOO_MANY_WAITERS).

const CHAIN = 'eip155:31337'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const POLL_MS = 50

let anvil: RunningAnvil
let server: TestServer
let capped: TestServer
const calls: string[] = []
/** While set, the node answers block reads with a 500 (a failing upstream). */
let failBlockReads = false
/** While set, the node's answer to `eth_getTransactionByHash` comes back this much later. */
let holdTransactionReadsMs = 0

beforeAll(async () => {
  anvil = await startAnvil({ args: ['--no-mining'] })
  const counting: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body)) as { method: string } | { method: string }[]
    for (const one of Array.isArray(body) ? body : [body]) calls.push(one.method)
    if (failBlockReads && JSON.stringify(body).includes('eth_getBlockByNumber')) {
      return new Response('upstream down', { status: 500 })
    }
    const answer = await fetch(input, init)
    if (holdTransactionReadsMs > 0 && JSON.stringify(body).includes('eth_getTransactionByHash')) {
      await new Promise((resolve) => setTimeout(resolve, holdTransactionReadsMs))
    }
    return answer
  }
  const project = {
    ...TEST_PROJECT,
    networks: [{ chainId: CHAIN, rpcUrl: anvil.rpcUrl }],
    rateLimits: {
      appKey: { limit: 100_000, windowSeconds: 60 },
      project: { limit: 100_000, windowSeconds: 60 },
    },
  }
  server = await startTestServer({
    projects: { projects: [project] },
    // 2,000 long-polls from one test process: above the default 512 connections per address.
    http: { maxConnectionsPerIp: 5_000 },
    transactions: {
      blockPollMs: POLL_MS,
      fetch: counting,
      waiters: { perCaller: 2_500, total: 2_500 },
    },
  })
  capped = await startTestServer({
    projects: { projects: [project] },
    transactions: { blockPollMs: POLL_MS, waiters: { perCaller: 3, total: 5 } },
  })
})
afterAll(async () => {
  await Promise.all([server?.close(), capped?.close()])
  await anvil?.stop()
})

const randomHash = () =>
  `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`
const etagOf = (hash: string, report = { status: 'unknown' as const }) =>
  statusResponseEtag(toStatusResponse(CHAIN, hash, report))
const count = (method: string) => calls.filter((one) => one === method).length
const until = async (check: () => boolean, what: string, ms = 20_000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A long-poll of `hash` (up to 25 s) that the test ends with `abort`. */
function wait(
  target: TestServer,
  hash: string,
  etag: string,
  signal: AbortSignal,
  headers: Record<string, string> = {},
) {
  const query = new URLSearchParams({ chainId: CHAIN, hash, waitMs: '25000' })
  return fetch(`${target.baseUrl}${API_PREFIX}/transactions?${query}`, {
    headers: { 'x-app-key': 'test-app-key', 'if-none-match': etag, ...headers },
    signal,
  }).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    () => ({ status: 0, body: '' }),
  )
}

describe('transaction long-polls: upstream calls per head whatever the number of waiters', () => {
  for (const waiters of [1, 100]) {
    it(`${waiters} waiter(s): each new head costs one block read, plus one receipt per mined match`, async () => {
      const ended = new AbortController()
      setMaxListeners(5_000, ended.signal)
      // One real transaction among random hashes nobody sent.
      const sent = await keyWallet(anvil.rpcUrl).sendTransaction({
        to: RECIPIENT,
        value: 1n,
        chain: null,
        maxPriorityFeePerGas: parseGwei('1'),
        maxFeePerGas: parseGwei('10'),
        gas: 21_000n,
      })
      const hashes = [sent, ...Array.from({ length: waiters - 1 }, randomHash)]
      calls.length = 0
      const answers = hashes.map((hash, index) =>
        wait(
          server,
          hash,
          index === 0 ? etagOf(hash, { status: 'pending' } as never) : etagOf(hash),
          ended.signal,
        ),
      )
      // Each wait starts with one read of its own (the request, charged by the rate limit).
      await until(
        () => count('eth_getTransactionByHash') >= waiters,
        'the first reads',
        90_000,
      ).catch((error) => {
        throw new Error(`${error.message}: ${count('eth_getTransactionByHash')} of ${waiters}`)
      })
      await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
      calls.length = 0
      const blocks = 3
      await rpc(anvil.rpcUrl, 'evm_mine')
      // The transaction's waiter is answered at the first block; the others keep waiting.
      const first = await answers[0]!
      expect(first.status).toBe(200)
      expect(JSON.parse(first.body)).toMatchObject({ status: 'confirmed', confirmations: 1 })
      for (let mined = 2; mined <= blocks; mined++) {
        await rpc(anvil.rpcUrl, 'evm_mine')
        await until(() => count('eth_getBlockByNumber') >= mined, `block ${mined} read`)
      }
      await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
      const perMethod = Object.fromEntries(
        [...new Set(calls)].map((method) => [method, count(method)]),
      )
      // Besides the head polls: one block read per head, the one match's receipt, nothing per waiter.
      const { eth_blockNumber: headReads = 0, ...rest } = perMethod
      expect(rest).toEqual({ eth_getBlockByNumber: blocks, eth_getTransactionReceipt: 1 })
      expect(headReads).toBeGreaterThan(0)
      expect(headReads).toBeLessThan(200)
      ended.abort()
      const rest200 = (await Promise.all(answers.slice(1))).filter((one) => one.status === 200)
      expect(rest200).toEqual([])
    }, 180_000)
  }
})

describe('a transaction the node learns of while it is waited on', () => {
  it('reads pending by the next long-poll, though no block holds it yet', async () => {
    const wallet = keyWallet(anvil.rpcUrl, ANVIL_KEY_1)
    const nonce = await rpc<string>(anvil.rpcUrl, 'eth_getTransactionCount', [
      wallet.account.address,
      'pending',
    ])
    const signed = await wallet.signTransaction({
      to: RECIPIENT,
      value: 1n,
      chain: null,
      chainId: 31337,
      nonce: Number(nonce),
      maxPriorityFeePerGas: parseGwei('1'),
      maxFeePerGas: parseGwei('10'),
      gas: 21_000n,
    } as never)
    const hash = keccak256(signed)
    const first = await wait(server, hash, etagOf(hash), AbortSignal.timeout(600))
    expect(first.status).toBe(0) // still waiting (unknown) when the test stopped it
    // A new head (the scans see the hash nowhere), then the transaction reaches the pool.
    await rpc(anvil.rpcUrl, 'evm_mine')
    await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
    await rpc(anvil.rpcUrl, 'eth_sendRawTransaction', [signed])
    // The next long-poll starts with a read of its own: pending at once, no block needed.
    const next = await wait(server, hash, etagOf(hash), AbortSignal.timeout(5_000))
    expect(next.status).toBe(200)
    expect(JSON.parse(next.body)).toMatchObject({ status: 'pending' })
    await rpc(anvil.rpcUrl, 'evm_mine')
  }, 30_000)
})

describe('a waited transaction replaced (same sender and nonce)', () => {
  it('is named replaced by the block that holds the replacement: no per-waiter read, no nonce lookup', async () => {
    const wallet = keyWallet(anvil.rpcUrl, ANVIL_KEY_1)
    const nonce = Number(
      await rpc<string>(anvil.rpcUrl, 'eth_getTransactionCount', [
        wallet.account.address,
        'pending',
      ]),
    )
    const base = { to: RECIPIENT, value: 1n, chain: null, gas: 21_000n, nonce } as const
    const original = await wallet.sendTransaction({
      ...base,
      maxFeePerGas: parseGwei('5'),
      maxPriorityFeePerGas: parseGwei('1'),
    })
    const ended = new AbortController()
    calls.length = 0
    const waiting = wait(
      server,
      original,
      etagOf(original, { status: 'pending' } as never),
      ended.signal,
    )
    await until(() => count('eth_getTransactionByHash') >= 1, 'the first read')
    await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
    calls.length = 0
    const replacement = await wallet.sendTransaction({
      ...base,
      maxFeePerGas: parseGwei('50'),
      maxPriorityFeePerGas: parseGwei('2'),
    })
    await rpc(anvil.rpcUrl, 'evm_mine')
    const answer = await waiting
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({
      chainId: CHAIN,
      hash: original,
      status: 'unknown',
      replacedBy: replacement,
    })
    const { eth_blockNumber: _heads, ...rest } = Object.fromEntries(
      [...new Set(calls)].map((method) => [method, count(method)]),
    )
    expect(rest).toEqual({ eth_getBlockByNumber: 1 })
  }, 30_000)
})

describe('a node that fails the head scan', () => {
  it('keeps the waiters waiting (no read per waiter); the next head scans the missed block too', async () => {
    const sent = await keyWallet(anvil.rpcUrl).sendTransaction({
      to: RECIPIENT,
      value: 1n,
      chain: null,
      maxPriorityFeePerGas: parseGwei('1'),
      maxFeePerGas: parseGwei('10'),
      gas: 21_000n,
    })
    const others = Array.from({ length: 20 }, randomHash)
    const ended = new AbortController()
    calls.length = 0
    const waiting = wait(server, sent, etagOf(sent, { status: 'pending' } as never), ended.signal)
    const rest = others.map((hash) => wait(server, hash, etagOf(hash), ended.signal))
    await until(() => count('eth_getTransactionByHash') >= 21, 'the first reads')
    await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
    failBlockReads = true
    try {
      calls.length = 0
      await rpc(anvil.rpcUrl, 'evm_mine')
      await until(() => count('eth_getBlockByNumber') >= 2, 'failed block reads')
      const early = await Promise.race([
        waiting,
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
      ])
      expect(early).toBe('still waiting')
      expect(count('eth_getTransactionByHash')).toBe(0)
    } finally {
      failBlockReads = false
    }
    await rpc(anvil.rpcUrl, 'evm_mine')
    const answer = await waiting
    expect(answer.status).toBe(200)
    // Mined in the block the failed scan missed: found by the next scan, two confirmations.
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'confirmed', confirmations: 2 })
    ended.abort()
    expect((await Promise.all(rest)).every((one) => one.status === 0)).toBe(true)
  }, 60_000)
})

describe('2,000 waiters (the service the route waits on, without 2,000 HTTP requests)', () => {
  it('each new head costs one block read, plus one receipt per mined match', async () => {
    const serviceCalls: string[] = []
    const counting: typeof fetch = async (input, init) => {
      serviceCalls.push(String(JSON.parse(String(init?.body)).method))
      return fetch(input, init)
    }
    const service = createTransactionService([{ chainId: CHAIN, rpcUrl: anvil.rpcUrl }], {
      feed: createMemoryTransactionFeed(),
      blockPollMs: POLL_MS,
      fetch: counting,
      waiters: { perCaller: 2_000, total: 2_000 },
    })
    const perMethod = () =>
      Object.fromEntries(
        [...new Set(serviceCalls)].map((method) => [
          method,
          serviceCalls.filter((one) => one === method).length,
        ]),
      )
    try {
      const sent = await keyWallet(anvil.rpcUrl).sendTransaction({
        to: RECIPIENT,
        value: 1n,
        chain: null,
        maxPriorityFeePerGas: parseGwei('1'),
        maxFeePerGas: parseGwei('10'),
        gas: 21_000n,
      })
      const hashes = [sent.toLowerCase(), ...Array.from({ length: 1_999 }, randomHash)]
      const flags = hashes.map((hash) => service.follow(CHAIN, hash, 'one caller')!)
      expect(flags.every(Boolean)).toBe(true)
      expect(service.follow(CHAIN, randomHash(), 'one caller')).toBeUndefined()
      // The instance's cap too: another caller is refused once 2,000 wait in all.
      expect(service.follow(CHAIN, randomHash(), 'another caller')).toBeUndefined()
      // The first read of each wait (one per request), 50 at a time.
      for (let index = 0; index < hashes.length; index += 50) {
        await Promise.all(
          hashes.slice(index, index + 50).map((hash) => service.read(CHAIN, hash, true)),
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
      // A head seen before counting raised the flag already: lower it.
      await flags[0]!.next(AbortSignal.timeout(1))
      serviceCalls.length = 0
      const never = new AbortController().signal
      for (let mined = 1; mined <= 3; mined++) {
        await rpc(anvil.rpcUrl, 'evm_mine')
        await flags[0]!.next(never)
      }
      // As the woken route reads them: from the scans.
      expect(await service.read(CHAIN, hashes[0]!, true, true)).toMatchObject({
        status: 'confirmed',
        confirmations: 3,
      })
      expect(await service.read(CHAIN, hashes[1]!, true, true)).toEqual({ status: 'unknown' })
      const { eth_blockNumber: headReads = 0, ...rest } = perMethod()
      expect(rest).toEqual({ eth_getBlockByNumber: 3, eth_getTransactionReceipt: 1 })
      expect(headReads).toBeGreaterThan(0)
      for (const flag of flags) flag.stop()
      expect(service.waiting).toBe(0)
    } finally {
      service.close()
    }
  }, 180_000)
})

describe('heads the watcher skipped', () => {
  it('each skipped block is read once, at most 8 per head; past that the waited hash is read again', async () => {
    const serviceCalls: string[] = []
    const service = createTransactionService([{ chainId: CHAIN, rpcUrl: anvil.rpcUrl }], {
      feed: createMemoryTransactionFeed(),
      blockPollMs: POLL_MS,
      fetch: async (input, init) => {
        serviceCalls.push(String(JSON.parse(String(init?.body)).method))
        return fetch(input, init)
      },
    })
    const reads = (method: string) => serviceCalls.filter((one) => one === method).length
    try {
      const hash = randomHash()
      const flag = service.follow(CHAIN, hash, 'caller')!
      await service.read(CHAIN, hash, true)
      await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
      await flag.next(AbortSignal.timeout(1))
      serviceCalls.length = 0
      const never = new AbortController().signal
      await rpc(anvil.rpcUrl, 'anvil_mine', ['0x3'])
      await flag.next(never)
      // (Should the watcher see the three in two heads, each block is still read once.)
      await until(() => reads('eth_getBlockByNumber') >= 3, 'three block reads')
      await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
      expect(reads('eth_getBlockByNumber')).toBe(3)
      expect(await service.read(CHAIN, hash, true, true)).toEqual({ status: 'unknown' })
      expect(reads('eth_getTransactionByHash')).toBe(0)
      serviceCalls.length = 0
      await rpc(anvil.rpcUrl, 'anvil_mine', ['0x40'])
      await flag.next(never)
      await new Promise((resolve) => setTimeout(resolve, 4 * POLL_MS))
      // 64 blocks at once: 8 read (16 should the watcher see them in two heads), the rest not.
      expect(reads('eth_getBlockByNumber')).toBeGreaterThanOrEqual(8)
      expect(reads('eth_getBlockByNumber')).toBeLessThanOrEqual(16)
      // Blocks unread: the scan cannot vouch for the hash, its waiter's read asks the node.
      expect(await service.read(CHAIN, hash, true, true)).toEqual({ status: 'unknown' })
      expect(reads('eth_getTransactionByHash')).toBe(1)
      flag.stop()
    } finally {
      service.close()
    }
  }, 60_000)
})

describe('the replacement search is incremental, with a per-read budget', () => {
  const serviceCalls: string[] = []
  const service = () =>
    createTransactionService([{ chainId: CHAIN, rpcUrl: anvil.rpcUrl }], {
      feed,
      fetch: async (input, init) => {
        serviceCalls.push(String(JSON.parse(String(init?.body)).method))
        return fetch(input, init)
      },
    })
  const feed = createMemoryTransactionFeed()
  const send = (maxFeePerGas: bigint, nonce?: number) =>
    keyWallet(anvil.rpcUrl).sendTransaction({
      to: RECIPIENT,
      value: 1n,
      chain: null,
      maxPriorityFeePerGas: parseGwei('1'),
      maxFeePerGas,
      gas: 21_000n,
      ...(nonce === undefined ? {} : { nonce }),
    })
  const nonceOf = async (hash: string) =>
    Number(
      ((await rpc(anvil.rpcUrl, 'eth_getTransactionByHash', [hash])) as { nonce: string }).nonce,
    )
  const readCosting = async (reader: ReturnType<typeof service>, hash: string) => {
    serviceCalls.length = 0
    const report = await reader.read(CHAIN, hash)
    return { report, calls: [...serviceCalls] }
  }

  it('a replacement mined 300 blocks before the read is found for a bounded cost, and the next read reads no block', async () => {
    const reader = service()
    try {
      const original = (await send(parseGwei('5'))).toLowerCase()
      expect((await reader.read(CHAIN, original)).status).toBe('pending')
      const replacement = await send(parseGwei('50'), await nonceOf(original))
      await rpc(anvil.rpcUrl, 'evm_mine')
      await rpc(anvil.rpcUrl, 'anvil_mine', ['0x12c'])
      const first = await readCosting(reader, original)
      expect(first.report).toEqual({ status: 'unknown', replacedBy: replacement })
      // Head, transaction, nonce, latest block, then the blocks from where it was seen pending.
      expect(
        first.calls.filter((method) => method === 'eth_getBlockByNumber').length,
      ).toBeLessThanOrEqual(2)
      expect(first.calls.length).toBeLessThanOrEqual(6)
      const second = await readCosting(reader, original)
      expect(second.report).toEqual({ status: 'unknown', replacedBy: replacement })
      expect(second.calls).toEqual(['eth_blockNumber', 'eth_getTransactionByHash'])
    } finally {
      reader.close()
    }
  }, 60_000)

  it('a replacement 40 blocks after the sighting: each read reads at most 16 blocks and goes on where the last stopped', async () => {
    const reader = service()
    try {
      const original = (await send(parseGwei('5'))).toLowerCase()
      expect((await reader.read(CHAIN, original)).status).toBe('pending')
      const nonce = await nonceOf(original)
      // The original leaves the pool (anvil drops it), 40 empty blocks, then the replacement.
      await rpc(anvil.rpcUrl, 'anvil_dropTransaction', [original])
      await rpc(anvil.rpcUrl, 'anvil_mine', ['0x28'])
      const replacement = await send(parseGwei('50'), nonce)
      await rpc(anvil.rpcUrl, 'anvil_mine', ['0x12c'])
      const reads = []
      for (let read = 0; read < 4; read++) reads.push(await readCosting(reader, original))
      for (const { calls } of reads) {
        expect(
          calls.filter((method) => method === 'eth_getBlockByNumber').length,
        ).toBeLessThanOrEqual(16)
      }
      expect(reads.map(({ report }) => report.replacedBy)).toEqual([
        undefined,
        undefined,
        replacement,
        replacement,
      ])
      // 41 blocks searched once in all (16 + 16 + 9), never twice.
      const blockReads = reads
        .flatMap(({ calls }) => calls)
        .filter((method) => method === 'eth_getBlockByNumber')
      expect(blockReads.length).toBe(16 + 16 + 10)
    } finally {
      reader.close()
    }
  }, 60_000)
})

describe('transaction long-polls: the waits of one caller are capped', () => {
  it('past the cap, 429 TOO_MANY_WAITERS in the error body; once a wait ends, the next is admitted', async () => {
    const ended = [new AbortController(), new AbortController(), new AbortController()]
    const hashes = [randomHash(), randomHash(), randomHash(), randomHash()]
    const open = ended.map((controller, index) =>
      wait(capped, hashes[index]!, etagOf(hashes[index]!), controller.signal),
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    const query = new URLSearchParams({ chainId: CHAIN, hash: hashes[3]!, waitMs: '1000' })
    const refused = await call(capped.baseUrl, `/transactions?${query}`, {
      headers: { 'x-app-key': 'test-app-key', 'if-none-match': etagOf(hashes[3]!) },
    })
    expect(refused.status).toBe(429)
    expect(codeOf(refused)).toBe('TOO_MANY_WAITERS')
    expect(refused.headers.get('retry-after')).toBe('1')
    // A plain read (no wait) is no waiter: still answered.
    const plain = await call(capped.baseUrl, `/transactions?chainId=${CHAIN}&hash=${hashes[3]}`, {
      headers: { 'x-app-key': 'test-app-key' },
    })
    expect(plain.status).toBe(200)
    ended[0]!.abort()
    await open[0]
    await new Promise((resolve) => setTimeout(resolve, 100))
    const admitted = await call(capped.baseUrl, `/transactions?${query}`, {
      headers: { 'x-app-key': 'test-app-key', 'if-none-match': etagOf(hashes[3]!) },
    })
    expect(admitted.status).toBe(304)
    for (const controller of ended) controller.abort()
    await Promise.all(open)
  }, 30_000)
})

describe('transaction long-polls: a head scanned while a waiter reads', () => {
  // The block is mined and scanned while the wait's first read is in flight (the scan cannot see
  // an entry without a report): the scan's wake, taken by the waiter's flag since it followed,
  // makes the waiter read again at the new head rather than stand on "pending" for 25 s.
  it('a block mined while the first read is in flight is seen at once, not at the end of the wait', async () => {
    const hash = await keyWallet(anvil.rpcUrl, ANVIL_KEY_1).sendTransaction({
      to: RECIPIENT,
      value: 1n,
      chain: null,
    })
    holdTransactionReadsMs = 600
    const ended = new AbortController()
    try {
      const started = Date.now()
      const answer = wait(server, hash, etagOf(hash, { status: 'pending' } as never), ended.signal)
      // The read asked the node (still pending there); the block is mined and scanned meanwhile.
      await until(() => calls.includes('eth_getTransactionByHash'), 'the first read')
      await rpc(anvil.rpcUrl, 'evm_mine')
      const { status, body } = await answer
      expect(status).toBe(200)
      expect(JSON.parse(body)).toMatchObject({ hash, status: 'confirmed' })
      expect(Date.now() - started).toBeLessThan(5_000)
    } finally {
      holdTransactionReadsMs = 0
      ended.abort()
    }
  })
})
