import { base58 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryTransactionFeed } from '../src/transactions/feed'
import { createTransactionService, type TransactionService } from '../src/transactions/service'
import { SOLANA_DEVNET } from './support/server'
import { type SolanaRpcDouble, startSolanaRpcDouble } from './support/solana-rpc-double'

// Solana waiters against the JSON-RPC TEST DOUBLE (no validator runs here), counting its calls:
// each new slot costs one getSlot and one getSignatureStatuses per 256 unsettled waited
// signatures, however many waiters (the service GET /transactions waits on).

const WAITERS = 600
let solana: SolanaRpcDouble
let service: TransactionService

beforeAll(async () => {
  solana = await startSolanaRpcDouble({ slot: 1_000 })
  service = createTransactionService([{ chainId: SOLANA_DEVNET, rpcUrl: solana.url }], {
    feed: createMemoryTransactionFeed(),
    blockPollMs: 50,
    waiters: { perCaller: WAITERS, total: WAITERS },
  })
})
afterAll(async () => {
  service?.close()
  await solana?.close()
})

const signature = () => base58.encode(crypto.getRandomValues(new Uint8Array(64)))

describe('Solana waiters: batched signature statuses per slot', () => {
  it(`${WAITERS} waiters: one getSignatureStatuses per 256 signatures per new slot; settled ones cost nothing`, async () => {
    const signatures = Array.from({ length: WAITERS }, signature)
    const flags = signatures.map((one) => service.follow(SOLANA_DEVNET, one, 'caller')!)
    for (let index = 0; index < WAITERS; index += 50) {
      await Promise.all(
        signatures.slice(index, index + 50).map((one) => service.read(SOLANA_DEVNET, one, true)),
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
    const never = new AbortController().signal
    // A head seen before counting raised the flag already: lower it.
    await flags[0]!.next(AbortSignal.timeout(1))
    solana.calls.length = 0
    solana.setSignatureStatus(signatures[0]!, {
      slot: 1_001,
      confirmationStatus: 'confirmed',
      err: null,
    })
    solana.setSlot(1_001)
    await flags[0]!.next(never)
    const batches = solana.calls.filter((call) => call.method === 'getSignatureStatuses')
    expect(batches.map((call) => (call.params as string[][])[0]!.length)).toEqual([256, 256, 88])
    expect(await service.read(SOLANA_DEVNET, signatures[0]!, true, true)).toEqual({
      status: 'confirmed',
      blockNumber: 1_001n,
      confirmations: 1,
    })
    // The confirmed one is settled: the next slot asks only for the 599 others.
    solana.calls.length = 0
    solana.setSlot(1_002)
    await flags[0]!.next(never)
    const next = solana.calls.filter((call) => call.method === 'getSignatureStatuses')
    expect(next.map((call) => (call.params as string[][])[0]!.length)).toEqual([256, 256, 87])
    expect(await service.read(SOLANA_DEVNET, signatures[0]!, true, true)).toMatchObject({
      confirmations: 2,
    })
    expect(
      solana.calls.every(
        (call) => call.method === 'getSlot' || call.method === 'getSignatureStatuses',
      ),
    ).toBe(true)
    for (const flag of flags) flag.stop()
    expect(service.waiting).toBe(0)
  }, 60_000)
})
