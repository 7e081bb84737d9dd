import { describe, expect, it } from 'vitest'
import { supportWallets, walletIdForConnectorId } from '../../src/registry'

describe('walletIdForConnectorId', () => {
  it('maps eip6963:{rdns} by rdns', () => {
    expect(walletIdForConnectorId('eip6963:io.metamask')).toBe('metamask')
    expect(walletIdForConnectorId('eip6963:app.phantom')).toBe('phantom')
    expect(walletIdForConnectorId('eip6963:com.coinbase.wallet')).toBe('coinbase')
  })

  it('maps every built-in rdns back to its wallet', () => {
    for (const wallet of supportWallets) {
      if (wallet.rdns) expect(walletIdForConnectorId(`eip6963:${wallet.rdns}`)).toBe(wallet.id)
    }
  })

  it('maps solana:{walletId} for built-in Solana wallets', () => {
    expect(walletIdForConnectorId('solana:phantom')).toBe('phantom')
    expect(walletIdForConnectorId('solana:solflare')).toBe('solflare')
    for (const wallet of supportWallets) {
      const expected = wallet.namespaces.includes('solana') ? wallet.id : undefined
      expect(walletIdForConnectorId(`solana:${wallet.id}`)).toBe(expected)
    }
  })

  it('returns a wallet id as it is', () => {
    for (const wallet of supportWallets) expect(walletIdForConnectorId(wallet.id)).toBe(wallet.id)
  })

  it.each([
    ['injected'],
    ['relay'],
    [''],
    ['eip6963:'],
    ['eip6963:io.unknown'],
    ['eip6963:IO.METAMASK'],
    ['eip6963:io.metamask '],
    ['eip6963:metamask'],
    ['solana:'],
    ['solana:metamask'],
    ['solana:rabby'],
    ['solana:Phantom'],
    ['solana:unknown'],
    ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
    ['sdk:metamask'],
    ['walletconnect'],
    ['MetaMask'],
    [' metamask'],
    ['io.metamask'],
    ['eip6963'],
    [':metamask'],
    ['eip6963:io.metamask:extra'],
    ['__proto__'],
    ['solana:__proto__'],
    ['eip6963:__proto__'],
    ['constructor'],
  ])('gives undefined for %j', (connectorId) => {
    expect(walletIdForConnectorId(connectorId)).toBeUndefined()
  })

  it('gives undefined for values that are not strings', () => {
    for (const value of [undefined, null, 1, {}, [], Symbol('x'), Object.create(null)]) {
      expect(walletIdForConnectorId(value as string)).toBeUndefined()
    }
  })
})
