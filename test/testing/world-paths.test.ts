import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ClientPathWorld,
  createClientCoverage,
  defaultWorld,
  getClientPaths,
  preloadClientPaths,
  runClientPath,
} from '../../src/testing'
import { headless, useVirtualTime } from './support/replays'

// Issue 31, item 9: `runClientPath` honours the world the paths were generated for. An app's own
// world — another wallet id (Rabby), its own chains (a local dev chain first, then Optimism), a
// Solana devnet phone wallet — gives paths whose views name that wallet and those chains; each
// replays on the real Client (before, the runner always used the default test wallet on chain 1,
// and every path failed at its second step: "chainId: eip155:1, expected eip155:31337").

const world: ClientPathWorld = {
  ...defaultWorld(),
  walletId: 'rabby',
  chains: ['eip155:31337', 'eip155:10'],
  addableChain: 'eip155:42161',
  phone: { ...defaultWorld().phone, chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' },
}
const paths = getClientPaths({ world, maxSteps: 4 })
const coverage = createClientCoverage()
afterAll(() => console.log(coverage.line()))
beforeAll(async () => {
  await preloadClientPaths(paths)
}, 30_000)
const wait = useVirtualTime()

describe("paths generated with the app's own world replay in it", () => {
  it('the paths name the world: its wallet, its first chain, its phone chain', () => {
    expect(paths.length).toBeGreaterThan(10)
    const views = paths.flatMap((path) => path.steps.map((step) => step.expected))
    expect(views.some((view) => view.walletId === 'rabby')).toBe(true)
    expect(views.some((view) => view.chainId === 'eip155:31337')).toBe(true)
    expect(views.some((view) => view.chainId === world.phone.chainId)).toBe(true)
    expect(views.some((view) => view.chainId === 'eip155:1')).toBe(false)
    expect(paths.every((path) => path.world === world)).toBe(true)
  })
  for (const path of paths)
    it(path.description, async () => {
      const run = await runClientPath(path, headless, { coverage, wait })
      expect(run.wallet.walletId).toBe('rabby')
    })
})
