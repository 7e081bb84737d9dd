import { afterEach, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/client'
import { createConnectConfigClient } from '../../src/config'
import { connectorKindForWallet, walletPaths } from '../../src/connectors'
import { isAppError } from '../../src/errors'
import {
  clearPartnerWallets,
  getWalletInfo,
  listConnectableTargets,
  listPartnerWallets,
  listSupportedWallets,
  registerPartnerWallets,
  resolveWalletInfo,
  walletIdForConnectorId,
  walletSupportsMobile,
  walletSupportsMobileOn,
  walletSupportsRelayOn,
} from '../../src/registry'
import { BRAND_IDS } from '../../src/registry/brand-ids'
import { supportWallets } from '../../src/registry/wallets'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from '../../src/testing'
import { json, useLoopback } from '../http/support/loopback'

const server = useLoopback()

afterEach(() => clearPartnerWallets())

function invalidConfig(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(isAppError(error)).toBe(true)
    expect((error as { code: string }).code).toBe('INVALID_CONFIG')
    return (error as Error).message
  }
  throw new Error('expected INVALID_CONFIG')
}

describe('partner wallets', () => {
  it('the brand ids a partner may not take are exactly the built-in wallets', () => {
    expect([...BRAND_IDS].sort()).toEqual(supportWallets.map((w) => w.id).sort())
  })

  it('the test kit partner answers every lookup once registered, and none before', () => {
    expect(() => getWalletInfo(TEST_PARTNER_WALLET_ID)).toThrow(/Unknown wallet/)
    expect(walletIdForConnectorId(TEST_PARTNER_WALLET_ID)).toBeUndefined()
    const [info] = registerPartnerWallets([TEST_PARTNER_WALLET])
    expect(Object.isFrozen(info)).toBe(true)
    expect(getWalletInfo(TEST_PARTNER_WALLET_ID)).toBe(info)
    expect(resolveWalletInfo(TEST_PARTNER_WALLET_ID)).toBe(info)
    expect(walletIdForConnectorId(TEST_PARTNER_WALLET_ID)).toBe(TEST_PARTNER_WALLET_ID)
    expect(walletIdForConnectorId(`solana:${TEST_PARTNER_WALLET_ID}`)).toBe(TEST_PARTNER_WALLET_ID)
    expect(listPartnerWallets().map((w) => w.id)).toEqual([TEST_PARTNER_WALLET_ID])
    expect(info?.namespaces).toEqual(['eip155', 'solana'])
    expect(walletSupportsRelayOn(info!, 'eip155')).toBe(true)
    expect(walletSupportsMobileOn(info!, 'solana')).toBe(true)
    expect(listSupportedWallets({ relay: true }).at(-1)?.id).toBe(TEST_PARTNER_WALLET_ID)
    expect(listSupportedWallets({ namespace: 'solana', mobile: true }).at(-1)?.id).toBe(
      TEST_PARTNER_WALLET_ID,
    )
    expect(listSupportedWallets().at(-1)?.id).toBe(TEST_PARTNER_WALLET_ID)
    expect(
      listConnectableTargets()
        .filter((t) => t.walletId === TEST_PARTNER_WALLET_ID)
        .map((t) => `${t.namespace}/${t.via}`),
    ).toEqual(['eip155/universal-link', 'eip155/relay', 'solana/universal-link', 'solana/relay'])
  })

  it('routes to the universal-link connector on a phone and offers the relay on a desktop', () => {
    const [info] = registerPartnerWallets([TEST_PARTNER_WALLET])
    expect(connectorKindForWallet(info!, 'solana', true)).toBe('universal-link')
    expect(walletPaths(info!, 'solana', 'phone')).toEqual(['universal-link'])
    expect(walletPaths(info!, 'eip155', 'desktop')).toEqual(['relay'])
  })

  it('a partner with only the relay is not offered the universal link', () => {
    const [info] = registerPartnerWallets([
      { id: 'relay-only', name: 'Relay Only', relay: { namespaces: ['eip155'] } },
    ])
    expect(info?.namespaces).toEqual(['eip155'])
    expect(walletSupportsMobile(info!)).toBe(false)
    expect(walletSupportsRelayOn(info!, 'eip155')).toBe(true)
    expect(walletSupportsRelayOn(info!, 'solana')).toBe(false)
  })

  it('registering the same partner id again replaces it (the Client option after the config)', () => {
    registerPartnerWallets([TEST_PARTNER_WALLET])
    registerPartnerWallets([{ ...TEST_PARTNER_WALLET, name: 'Renamed' }])
    expect(getWalletInfo(TEST_PARTNER_WALLET_ID).name).toBe('Renamed')
    expect(listPartnerWallets()).toHaveLength(1)
    clearPartnerWallets([TEST_PARTNER_WALLET_ID])
    expect(listPartnerWallets()).toEqual([])
  })

  it.each([
    ['a built-in id', { ...TEST_PARTNER_WALLET, id: 'phantom' }, /built-in/],
    [
      'a plain-http link',
      {
        ...TEST_PARTNER_WALLET,
        mobile: { universalLink: 'http://x.test/ul', namespaces: ['solana'] },
      },
      /mobile.universalLink/,
    ],
    [
      'a javascript: link',
      {
        ...TEST_PARTNER_WALLET,
        mobile: { universalLink: 'javascript:alert(1)', namespaces: ['solana'] },
      },
      /mobile.universalLink/,
    ],
    ['no protocol', { id: 'nothing', name: 'Nothing' }, /neither mobile nor relay/],
    ['a bad slug', { ...TEST_PARTNER_WALLET, id: 'Bad Id' }, /\(id\)/],
    ['an empty name', { ...TEST_PARTNER_WALLET, name: '' }, /\(name\)/],
    [
      'an unknown namespace',
      { ...TEST_PARTNER_WALLET, relay: { namespaces: ['cosmos'] } },
      /relay.namespaces/,
    ],
    [
      'an empty namespace list',
      { ...TEST_PARTNER_WALLET, relay: { namespaces: [] } },
      /relay.namespaces/,
    ],
    ['a bad icon', { ...TEST_PARTNER_WALLET, icon: 'javascript:1' }, /\(icon\)/],
    ['null', null, /\(entry\)/],
    ['a string', 'scope-test-wallet', /\(entry\)/],
  ])('refuses %s with INVALID_CONFIG and registers nothing', (_, entry, message) => {
    const text = invalidConfig(() =>
      registerPartnerWallets([
        { id: 'good-one', name: 'Good', relay: { namespaces: ['eip155'] } },
        entry as never,
      ]),
    )
    expect(text).toMatch(message)
    expect(listPartnerWallets()).toEqual([])
  })

  it('refuses a non-array and a repeated id with INVALID_CONFIG', () => {
    expect(invalidConfig(() => registerPartnerWallets(undefined as never))).toMatch(/array/)
    expect(
      invalidConfig(() => registerPartnerWallets([TEST_PARTNER_WALLET, TEST_PARTNER_WALLET])),
    ).toMatch(/twice/)
  })
})

describe('partner wallets from the Client option and the project config', () => {
  it('new Client({ partnerWallets }) registers them; a bad one is INVALID_CONFIG, not a TypeError', () => {
    const client = new Client({
      baseUrl: 'https://api.example.test',
      appKey: 'pk_partner',
      partnerWallets: [TEST_PARTNER_WALLET],
    })
    expect(client.getView().status).toBe('idle')
    expect(getWalletInfo(TEST_PARTNER_WALLET_ID).name).toBe('Scope Test Wallet')
    invalidConfig(
      () =>
        new Client({
          baseUrl: 'https://api.example.test',
          appKey: 'pk_partner',
          partnerWallets: [{ id: 'metamask', name: 'x', relay: { namespaces: ['eip155'] } }],
        }),
    )
    invalidConfig(
      () =>
        new Client({
          baseUrl: 'https://api.example.test',
          appKey: 'pk_partner',
          partnerWallets: 'nope' as never,
        }),
    )
  })

  const CONFIG = {
    projectId: 'proj_1',
    name: 'Demo dApp',
    networks: [],
    wallets: [{ walletId: 'phantom', name: 'Phantom', namespaces: ['solana'] }],
  }

  it('GET /config partnerWallets are registered and returned', async () => {
    server.handle(json(200, { ...CONFIG, partnerWallets: [TEST_PARTNER_WALLET] }))
    const config = await createConnectConfigClient({
      baseUrl: server.baseUrl,
      appKey: 'pk_cfg',
    }).fetchConfig()
    expect(config.partnerWallets?.map((w) => w.id)).toEqual([TEST_PARTNER_WALLET_ID])
    expect(walletSupportsRelayOn(getWalletInfo(TEST_PARTNER_WALLET_ID), 'solana')).toBe(true)
  })

  it('a bad partner in GET /config rejects with INVALID_CONFIG and registers none; the next read works', async () => {
    server.handle(
      json(200, {
        ...CONFIG,
        partnerWallets: [
          { ...TEST_PARTNER_WALLET, mobile: { universalLink: 'http://a', namespaces: ['solana'] } },
        ],
      }),
    )
    const client = createConnectConfigClient({ baseUrl: server.baseUrl, appKey: 'pk_cfg' })
    const error = await client.fetchConfig().catch((e: unknown) => e)
    expect(isAppError(error)).toBe(true)
    expect((error as { code: string }).code).toBe('INVALID_CONFIG')
    expect(listPartnerWallets()).toEqual([])
    server.handle(json(200, CONFIG))
    expect((await client.fetchConfig()).partnerWallets).toBeUndefined()
  })
})
