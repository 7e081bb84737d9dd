import { isAppError } from 'scope-connect'
import { type PairingFlow, startPairing } from 'scope-connect/machines'
import { pairingQrSvg } from 'scope-connect/qr'
import { $, type DappConfig } from './config'

// Flow 3, QR pairing over the relay: show the pairing URI as a QR code (and as text), wait for the
// wallet to approve, then ask it for a personal_sign over the end-to-end encrypted session.

function flowState(value: unknown): string {
  const flow = (value as { active?: { flow?: unknown } }).active?.flow
  if (typeof flow === 'string') return flow
  if (flow && typeof flow === 'object') return Object.keys(flow)[0] ?? ''
  return String(value)
}

function showError(id: string, error: unknown) {
  $(id).textContent = isAppError(error) ? `error: ${error.code}` : `error: ${error}`
}

/** Wires the pair button; returns the current flow for tests. */
export function setUpPairing(config: DappConfig): { current(): PairingFlow | null } {
  let flow: PairingFlow | null = null
  $('pair').onclick = async () => {
    flow?.stop()
    const started = startPairing({
      baseUrl: config.baseUrl,
      appKey: config.appKey,
      requiredNamespaces: {
        eip155: { chains: ['eip155:31337'], methods: ['personal_sign', 'eth_signTypedData_v4'] },
      },
      metadata: { name: 'scope-connect example dApp', url: location.origin },
    })
    flow = started
    $('pair-account').textContent = ''
    $('pair-signature').textContent = ''
    $('pair-qr').innerHTML = pairingQrSvg(started.uri ?? '')
    $<HTMLTextAreaElement>('pair-uri').value = started.uri ?? ''
    started.actor.subscribe((s) => {
      // A flow that ended is reported by the approval's error below.
      if (s.status === 'active') $('pair-status').textContent = flowState(s.value)
    })
    try {
      const session = await started.approval
      const account = session.namespaces.eip155?.accounts[0] ?? ''
      // CAIP-10: eip155:31337:0x…
      $('pair-account').textContent = account.split(':')[2] ?? account
      $('pair-qr').innerHTML = ''
      const sign = $<HTMLButtonElement>('pair-sign')
      sign.disabled = false
      sign.onclick = async () => {
        $('pair-signature').textContent = 'waiting for the wallet…'
        try {
          $('pair-signature').textContent = await started.signMessage('Hello over the relay')
        } catch (error) {
          showError('pair-signature', error)
        }
      }
    } catch (error) {
      showError('pair-status', error)
    }
  }
  return { current: () => flow }
}
