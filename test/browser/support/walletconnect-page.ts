import { Client } from '../../../src/client'
import { defineConnectElements } from '../../../src/ui'

// The page of test/browser/walletconnect.browser.test.ts: a Client with the `walletConnect` option
// (the relay double's URL and the backend's from the page URL) and the connect modal. The test
// drives it through the modal, and reads results through `window.app`.
const params = new URL(location.href).searchParams
const client = new Client({
  baseUrl: params.get('backend') ?? 'http://127.0.0.1:1',
  appKey: params.get('appKey') ?? 'k',
  connectionStore: null,
  walletConnect: {
    projectId: 'test-project',
    metadata: { name: 'Test dApp', description: 'test', url: location.origin, icons: [] },
    relayUrl: params.get('relay') ?? '',
    chains: ['eip155:31337'],
    importSignClient: () => import('@walletconnect/sign-client'),
    signClientOptions: { customStoragePrefix: `t${Date.now()}` },
  },
})
defineConnectElements()
const modal = document.createElement('scope-connect-modal') as HTMLElement & {
  client: unknown
  open(): void
}
document.body.append(modal)
modal.client = client

;(window as unknown as { app: object }).app = {
  open: () => modal.open(),
  signMessage: (message: string) => client.signMessage(message),
  /** The signature, or the AppError code the call rejected with (for the failure twins). */
  trySign: (message: string) =>
    client.signMessage(message).then(
      (signature) => ({ signature, error: null }),
      (error: { code?: string }) => ({ signature: null, error: error.code ?? String(error) }),
    ),
  /** `send`, or the AppError code it rejected with. */
  trySend: (to: string) =>
    client.sendTransaction({ to, value: 1n }).then(
      (handle) => ({ hash: handle.hash, error: null }),
      (error: { code?: string }) => ({ hash: null, error: error.code ?? String(error) }),
    ),
  /** Sends 1 wei to `to` and waits for the receipt, watched through the backend. */
  send: async (to: string) => {
    const handle = await client.sendTransaction({ to, value: 1n })
    const receipt = await handle.wait()
    return { hash: handle.hash, status: receipt.status }
  },
  disconnect: () => client.disconnect(),
  view: () => {
    const view = client.getView()
    return {
      address: view.address,
      connected: view.isConnected,
      error: view.error?.code ?? null,
      pairingUri: view.pairingUri,
    }
  },
}
document.body.dataset.ready = 'true'
