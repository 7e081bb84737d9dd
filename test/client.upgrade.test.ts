import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AnyStateMachine, createMachine } from 'xstate'
import { createWalletSimulator } from '../examples/wallet-simulator/src/index'
import { machineFingerprint } from '../machines/client/client.fingerprint'
import { LINK_RECORD_SCHEMA } from '../machines/client/client.restore-values'
import { SOLANA_DEVNET } from '../server/test/support/server'
import type { Client, ClientOptions } from '../src/client'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../src/testing'
import type { UniversalLinkPersistedState } from '../src/universal-link/persisted-state'
import type { UniversalLinkStore } from '../src/universal-link/store'
import { useBackendWithAnvil } from './support/backend-with-anvil'
import { textLinkStore } from './support/text-link-store'

// A library upgrade that changes the root chart somewhere the universal-link flow does not look
// (one more root event and state) keeps the flows users left for their wallet: the record is
// written under the flow's schema (`client.link@1`), not under a hash of the whole chart.

const backend = useBackendWithAnvil()
const CLIENT_MACHINE = '../machines/client/client.machine'

/** The root chart as the next release might ship it: an unrelated root event and state more. */
function withUnrelatedChange(machine: AnyStateMachine): AnyStateMachine {
  const config = machine.config
  return createMachine(
    {
      ...config,
      on: { ...config.on, 'TEST.UNRELATED': { target: '.unrelated' } },
      states: { ...config.states, unrelated: {} },
    } as never,
    machine.implementations as never,
  )
}

function mobileOptions(store: UniversalLinkStore, links: string[]): ClientOptions {
  return {
    baseUrl: backend.server.baseUrl,
    appKey: backend.server.appKey,
    mobile: true,
    partnerWallets: [TEST_PARTNER_WALLET],
    solanaChainId: SOLANA_DEVNET,
    universalLink: {
      store,
      openLink: (url: string) => links.push(url),
      returnUrl: 'https://dapp.example/',
      pollIntervalMs: 20,
    },
  }
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(condition()).toBe(true)
}

/** Today's Client leaves for the wallet: the page goes away with the record stored. */
async function leaveForWallet(ClientClass: typeof Client) {
  const store = textLinkStore()
  const links: string[] = []
  const client = new ClientClass(mobileOptions(store, links))
  await client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
  void client.connect().catch(() => {})
  await until(() => links.length === 1 && store.value !== null)
  client.actor.stop()
  return { store, link: links[0] ?? '' }
}

afterEach(() => {
  vi.doUnmock(CLIENT_MACHINE)
  vi.resetModules()
})

describe('behavior: stored flows survive a library upgrade', () => {
  it('a record written before an unrelated root chart change resumes after it and connects', async () => {
    const today = await import('../src/client')
    const { store, link } = await leaveForWallet(today.Client)
    expect(JSON.parse(store.value ?? '{}').fingerprint).toBe(LINK_RECORD_SCHEMA)

    // The upgrade: the same library with one more root event and state.
    vi.resetModules()
    let upgradedMachine: AnyStateMachine | undefined
    vi.doMock(CLIENT_MACHINE, async (importOriginal) => {
      const original = await importOriginal<typeof import('../machines/client/client.machine')>()
      upgradedMachine = withUnrelatedChange(original.clientMachine)
      // A hash of the whole chart (what records were keyed by before) tells the two apart.
      expect(machineFingerprint(upgradedMachine)).not.toBe(
        machineFingerprint(original.clientMachine),
      )
      return { ...original, clientMachine: upgradedMachine }
    })
    const upgraded = await import('../src/client')
    const links: string[] = []
    const client = new upgraded.Client(mobileOptions(store, links))
    const resumed = await client.resume()
    expect(resumed.status).toBe('awaitingWallet')
    expect(upgradedMachine?.root.states.unrelated).toBeDefined()
    expect(client.actor.getSnapshot().machine.root.states.unrelated).toBeDefined()

    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    await wallet.handle(link)
    expect(await resumed.wait()).toMatchObject({ accounts: [wallet.address] })
    expect(client.getView().status).toBe('connected')
    expect(links).toEqual([]) // resuming does not reopen the wallet
    await client.disconnect()
  })

  it('a record of the release before record schemas (a chart hash) is checked and resumed', async () => {
    const { Client: ClientClass } = await import('../src/client')
    const { store, link } = await leaveForWallet(ClientClass)
    const record = JSON.parse(store.value ?? '{}') as UniversalLinkPersistedState
    store.value = JSON.stringify({ ...record, fingerprint: '1dc88d1ca893dc2a' })

    const client = new ClientClass(mobileOptions(store, []))
    const resumed = await client.resume()
    expect(resumed.status).toBe('awaitingWallet')
    // Rewritten under today's schema.
    expect(JSON.parse(store.value ?? '{}').fingerprint).toBe(LINK_RECORD_SCHEMA)
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    await wallet.handle(link)
    expect(await resumed.wait()).toMatchObject({ accounts: [wallet.address] })
    await client.disconnect()
  })

  it('a record written while the link flow kept its end in context (`outcome: null`) resumes and connects', async () => {
    const { Client: ClientClass } = await import('../src/client')
    const { store, link } = await leaveForWallet(ClientClass)
    const record = JSON.parse(store.value ?? '{}') as UniversalLinkPersistedState & {
      snapshot: { children: { universalLink: { snapshot: { context: Record<string, unknown> } } } }
    }
    expect(record.snapshot.children.universalLink.snapshot.context).not.toHaveProperty('outcome')
    record.snapshot.children.universalLink.snapshot.context.outcome = null
    store.value = JSON.stringify(record)

    const client = new ClientClass(mobileOptions(store, []))
    const resumed = await client.resume()
    expect(resumed.status).toBe('awaitingWallet')
    const restoredLink = client.actor.system.get('universalLink')?.getSnapshot()
    expect(restoredLink?.context).not.toHaveProperty('outcome')
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    await wallet.handle(link)
    expect(await resumed.wait()).toMatchObject({ accounts: [wallet.address] })
    await client.disconnect()
  })

  it('error: a record of a schema this release cannot read is discarded with its reason; the next connect works', async () => {
    const { Client: ClientClass } = await import('../src/client')
    const { store } = await leaveForWallet(ClientClass)
    const record = JSON.parse(store.value ?? '{}') as UniversalLinkPersistedState
    store.value = JSON.stringify({ ...record, fingerprint: 'client.link@99' })

    const links: string[] = []
    const client = new ClientClass(mobileOptions(store, links))
    const resumed = await client.resume()
    expect(resumed).toMatchObject({
      status: 'discarded',
      reason: expect.stringContaining('client.link@99'),
    })
    expect(store.value).toBeNull()

    await client.selectWallet(TEST_PARTNER_WALLET_ID, { namespace: 'solana' })
    const connected = client.connect()
    await until(() => links.length === 1)
    const wallet = createWalletSimulator({ walletSlug: TEST_PARTNER_WALLET_ID })
    await wallet.handle(links[0] ?? '')
    expect(await connected).toMatchObject({ accounts: [wallet.address] })
    await client.disconnect()
  })
})
