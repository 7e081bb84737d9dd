// @vitest-environment happy-dom-node
import { getWallets } from '@wallet-standard/app'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectConfig } from '../../src/config'
import {
  isInjectedPath,
  isServedPath,
  type ServedPathOptions,
  type WalletPlatform,
  walletPaths,
} from '../../src/connectors/wallet-paths'
import { clearPartnerWallets, registerPartnerWallets } from '../../src/registry'
import type { SupportWalletInfo } from '../../src/registry/types'
import { supportWallets } from '../../src/registry/wallets'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../../src/testing'
import { createScriptedEvmWallet } from '../../src/testing/doubles/evm-wallet'
import { TEST_EVM_KEYS, TEST_SOLANA_KEYS } from '../../src/testing/doubles/keys'
import { createScriptedSolanaWallet } from '../../src/testing/doubles/solana-wallet'
import { badgeOf } from '../../src/ui/lazy/modal'
import { type WalletOption, walletOptions } from '../../src/ui/lazy/wallets'

// Issue 26 item 5, "the registry and the modal offer only paths that each wallet can complete":
// for every built-in wallet, on a desktop, a phone and inside the wallet's own browser, with and
// without WalletConnect served, the row the modal offers takes a path of that wallet's declared
// ways (`walletPaths`), never the scope-connect relay or `sc*` link (no brand integrates
// scope-connect/wallet); a "QR code" badge means WalletConnect for a brand, and the scope QR is
// only "Other wallet" and the partner wallets'.

const NETWORK = (networkId: string, namespace: 'eip155' | 'solana') => ({
  networkId,
  namespace,
  name: networkId,
  nativeCurrency: { name: 'x', symbol: 'X', decimals: 18 },
  testnet: false,
})
/** A project that enables every built-in wallet on both namespaces. */
const config: ConnectConfig = {
  projectId: 'p',
  name: 'Every wallet',
  networks: [
    NETWORK('eip155:1', 'eip155'),
    NETWORK('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana'),
  ],
  wallets: supportWallets.map((w) => ({
    walletId: w.id,
    name: w.name,
    namespaces: [...w.namespaces],
  })),
}
const SERVED: ServedPathOptions[] = [{}, { walletConnect: true }]

const rowOf = (rows: WalletOption[], info: SupportWalletInfo) =>
  rows.find((row) =>
    row.action.kind === 'connect' ? row.action.walletId === info.id : row.name === info.name,
  )

/** The row of a built-in wallet takes one of its own ways on that platform, as the modal serves them. */
function expectTruthful(
  row: WalletOption | undefined,
  info: SupportWalletInfo,
  platform: WalletPlatform,
  served: ServedPathOptions,
) {
  const where = `${info.id} on ${platform} (WalletConnect ${served.walletConnect ? 'served' : 'not served'})`
  expect(row, where).toBeDefined()
  if (!row) return
  // Never the scope-connect protocols: no brand declares them.
  expect(row.action.kind, where).not.toBe('pair')
  expect(['relay', 'universal-link'], where).not.toContain(row.path)
  if (row.action.kind === 'link') {
    expect(row.action.href, where).toBe(info.homepage)
    expect(row.path, where).toBeUndefined()
    return
  }
  expect(row.action.kind, where).toBe('connect')
  if (row.action.kind !== 'connect') return
  expect(row.path, where).toBeDefined()
  const declared = walletPaths(info, row.action.namespace, platform)
  expect(declared, where).toContain(row.path)
  if (!row.installed) expect(isServedPath(row.path!, served), where).toBe(true)
  else expect(isInjectedPath(row.path!), where).toBe(true)
  // A "QR code" badge on a brand's row is WalletConnect's code, on a desktop.
  const mobile = platform !== 'desktop'
  if (badgeOf(row, mobile) === 'QR code') {
    expect([row.path, mobile], where).toEqual(['walletconnect', false])
  }
}

afterEach(() => clearPartnerWallets())

describe('the modal offers only paths each wallet can complete (every built-in wallet)', () => {
  for (const [platform, mobile] of [
    ['desktop', false],
    ['phone', true],
  ] as const) {
    it(`${platform}, no wallet in the page: each row is one of the wallet's ${platform} paths`, () => {
      for (const served of SERVED) {
        const rows = walletOptions(config, mobile, served)
        for (const info of supportWallets) expectTruthful(rowOf(rows, info), info, platform, served)
        // The scope QR: "Other wallet" on a desktop only; no brand's row opens it.
        const pairs = rows.filter((row) => row.action.kind === 'pair').map((row) => row.name)
        expect(pairs).toEqual(mobile ? [] : ['Other wallet'])
      }
    })
  }

  it('partner wallets: the scope QR (relay) on a desktop, their sc* link on a phone', () => {
    registerPartnerWallets([TEST_PARTNER_WALLET])
    const desktop = walletOptions(config, false, { walletConnect: true })
    const partner = desktop.find((row) => row.name === TEST_PARTNER_WALLET.name)
    expect(partner).toMatchObject({ action: { kind: 'pair' }, path: 'relay' })
    expect(badgeOf(partner!, false)).toBe('QR code')
    expect(desktop.filter((row) => row.action.kind === 'pair').map((row) => row.name)).toEqual([
      TEST_PARTNER_WALLET.name,
      'Other wallet',
    ])
    const phone = walletOptions(config, true, { walletConnect: true })
    expect(phone.find((row) => row.name === TEST_PARTNER_WALLET.name)).toMatchObject({
      action: { kind: 'connect', walletId: TEST_PARTNER_WALLET_ID, namespace: 'solana' },
      path: 'universal-link',
    })
  })

  describe('in-app: inside the wallet (its provider in the page)', () => {
    const cleanup: Array<() => void> = []
    beforeAll(() => {
      for (const info of supportWallets) {
        if (info.rdns && info.injected?.namespaces.includes('eip155')) {
          cleanup.push(createScriptedEvmWallet([TEST_EVM_KEYS[0]!]).announce(window, info.rdns))
        }
        const name = info.injected?.walletStandardName
        if (name && info.injected?.namespaces.includes('solana')) {
          const wallet = createScriptedSolanaWallet(name, [TEST_SOLANA_KEYS[0]!])
          cleanup.push(getWallets().register(wallet.wallet))
        }
      }
    })
    afterAll(() => {
      for (const undo of cleanup) undo()
    })

    it("each wallet's row is its injected provider, one of its in-app paths", () => {
      for (const served of SERVED) {
        const rows = walletOptions(config, true, served)
        for (const info of supportWallets) {
          const row = rowOf(rows, info)
          expectTruthful(row, info, 'in-app', served)
          if (info.rdns || info.injected?.walletStandardName)
            expect(row?.installed, info.id).toBe(true)
        }
      }
    })
  })
})
