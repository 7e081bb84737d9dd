import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChainRegistry, UpstreamError } from '../../src/chains'
import { type BlackHole, closedPortUrl, startBlackHole } from './support/black-hole'
import { UNTOUCHED_DEV_ACCOUNT } from './support/evm-fixture'
import { randomAddress } from './support/solana-keys'

const EVM = 'eip155:1'
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

describe('an upstream that accepts connections and never answers', () => {
  let hole: BlackHole
  beforeAll(async () => {
    hole = await startBlackHole()
  })
  afterAll(() => hole?.close())

  const registry = () =>
    createChainRegistry(
      [
        { chainId: EVM, rpcUrl: hole.url },
        { chainId: SOLANA, rpcUrl: hole.url },
      ],
      { timeoutMs: 150 },
    )

  it('fails an EVM read with UpstreamError once the timeout passes', async () => {
    const error = await registry()
      .get(EVM)!
      .readBalance({ chainId: EVM, tokenAddress: 'native', account: UNTOUCHED_DEV_ACCOUNT })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as Error).message).toMatch(/took too long|timed? ?out/i)
  })

  it('fails a Solana read with UpstreamError once the timeout passes', async () => {
    const error = await registry()
      .get(SOLANA)!
      .readBalance({ chainId: SOLANA, tokenAddress: 'native', account: randomAddress() })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as Error).message).toMatch(/timed out after 150 ms/)
  })
})

describe('an upstream that refuses connections', () => {
  it('fails a Solana read with UpstreamError', async () => {
    const registry = createChainRegistry([{ chainId: SOLANA, rpcUrl: await closedPortUrl() }])
    await expect(
      registry
        .get(SOLANA)!
        .readBalance({ chainId: SOLANA, tokenAddress: 'native', account: randomAddress() }),
    ).rejects.toBeInstanceOf(UpstreamError)
  })
})
