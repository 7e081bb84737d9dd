import { describe, expect, it } from 'vitest'
import { walletOptions } from '../../src/ui/lazy/wallets'
import { projectConfig } from './support/project-config'

// The modal's rows (issue 26 items 1 and 5): a wallet whose best served path is WalletConnect is
// offered by it only when the Client serves WalletConnect (`client.servedPathOptions()`), and then
// a generic "WalletConnect" row offers any WalletConnect wallet. In Node no wallet is in the page.

const config = projectConfig()
const row = (rows: ReturnType<typeof walletOptions>, name: string) =>
  rows.find((option) => option.name === name)

describe('walletOptions and WalletConnect', () => {
  it('served: a desktop without extensions offers MetaMask, Rainbow, Zerion over WalletConnect, and a generic WalletConnect row', () => {
    const rows = walletOptions(config, false, { walletConnect: true })
    for (const name of ['MetaMask', 'Rainbow', 'Zerion']) {
      expect(row(rows, name)).toMatchObject({
        installed: false,
        path: 'walletconnect',
        action: { kind: 'connect', namespace: 'eip155' },
      })
    }
    expect(row(rows, 'WalletConnect')).toMatchObject({
      path: 'walletconnect',
      action: { kind: 'connect', walletId: 'walletconnect', namespace: 'eip155' },
    })
    // The scope-connect QR stays under "Other wallet" (partner wallets).
    expect(row(rows, 'Other wallet')?.action).toEqual({ kind: 'pair' })
  })

  it('served on a phone: Rainbow and Zerion over WalletConnect (their deep links), MetaMask by its SDK', () => {
    const rows = walletOptions(config, true, { walletConnect: true })
    expect(row(rows, 'Rainbow')?.path).toBe('walletconnect')
    expect(row(rows, 'Zerion')?.path).toBe('walletconnect')
    expect(row(rows, 'MetaMask')?.path).toBe('metamask-sdk')
    expect(row(rows, 'WalletConnect')?.path).toBe('walletconnect')
    expect(row(rows, 'Other wallet')).toBeUndefined()
  })

  it('not served (no walletConnect option): no row offers WalletConnect, and there is no generic row', () => {
    for (const mobile of [false, true]) {
      const rows = walletOptions(config, mobile)
      expect(rows.filter((option) => option.path === 'walletconnect')).toEqual([])
      expect(row(rows, 'WalletConnect')).toBeUndefined()
      expect(row(rows, 'Rainbow')).toBeDefined()
    }
  })
})
