import { createMemoryUniversalLinkStore, isAppError } from 'scope-connect'
import { Client } from 'scope-connect/client'
import { createBrowserPairingStore, type PairingFlow } from 'scope-connect/machines'
import { pairingQrSvg } from 'scope-connect/qr'
import { $, type DappConfig } from './config'

// Flow 3, QR pairing over the relay: show the pairing URI as a QR code (and as text), wait for the
// wallet to approve, then ask it for a personal_sign over the end-to-end encrypted session. The
// pairing runs as a child of the Client's root machine; the settled session is kept in
// localStorage and restored after a reload by `client.resume()`.

function flowState(value: unknown): string {
  const flow = (value as { active?: { flow?: unknown } }).active?.flow
  if (typeof flow === 'string') return flow
  if (flow && typeof flow === 'object') return Object.keys(flow)[0] ?? ''
  return String(value)
}

function showError(id: string, error: unknown) {
  $(id).textContent = isAppError(error) ? `error: ${error.code}` : `error: ${error}`
}

/** Follows the flow's state on the page; once paired, shows the account and arms the buttons. */
async function follow(flow: PairingFlow, client: Client) {
  const sign = $<HTMLButtonElement>('pair-sign')
  const disconnect = $<HTMLButtonElement>('pair-disconnect')
  flow.actor.subscribe((s) => {
    // A flow that ended is reported by the approval's error below, or by disconnect.
    if (s.status === 'active') $('pair-status').textContent = flowState(s.value)
  })
  try {
    const session = await flow.approval
    const account = session.namespaces.eip155?.accounts[0] ?? ''
    // CAIP-10: eip155:31337:0x…
    $('pair-account').textContent = account.split(':')[2] ?? account
    $('pair-qr').innerHTML = ''
    sign.disabled = false
    disconnect.disabled = false
    sign.onclick = async () => {
      $('pair-signature').textContent = 'waiting for the wallet…'
      try {
        $('pair-signature').textContent = await client.signMessage('Hello over the relay')
      } catch (error) {
        showError('pair-signature', error)
      }
    }
    disconnect.onclick = async () => {
      sign.disabled = true
      disconnect.disabled = true
      await client.disconnect()
      $('pair-status').textContent = 'disconnected'
      $('pair-account').textContent = ''
    }
  } catch (error) {
    showError('pair-status', error)
  }
}

/** Wires the pair button and restores a session paired before a reload; returns the current flow. */
export function setUpPairing(config: DappConfig): { current(): PairingFlow | null } {
  const connection = { baseUrl: config.baseUrl, appKey: config.appKey }
  const store = createBrowserPairingStore()
  let flow: PairingFlow | null = null

  // This Client only pairs: its resume() restores the paired session, and a universal-link record
  // of the page's mobile Client (in localStorage) is not its business, so it gets a store of its own.
  const client = new Client({
    ...connection,
    pairing: { store },
    universalLink: { store: createMemoryUniversalLinkStore() },
  })
  $('pair').onclick = async () => {
    flow?.stop()
    store.clear()
    $<HTMLButtonElement>('pair-sign').disabled = true
    $<HTMLButtonElement>('pair-disconnect').disabled = true
    flow = await client.pair({
      chains: ['eip155:31337'],
      metadata: { name: 'scope-connect example dApp', url: location.origin },
    })
    $('pair-account').textContent = ''
    $('pair-signature').textContent = ''
    $('pair-qr').innerHTML = pairingQrSvg(flow.uri ?? '')
    $<HTMLTextAreaElement>('pair-uri').value = flow.uri ?? ''
    void follow(flow, client)
  }

  void client.resume().then((resumed) => {
    if (resumed.status === 'connected' && client.pairing) {
      flow = client.pairing
      void follow(flow, client)
    } else if (resumed.status === 'discarded') {
      $('pair-status').textContent = `discarded: ${resumed.reason}`
    }
  })
  return { current: () => flow }
}
