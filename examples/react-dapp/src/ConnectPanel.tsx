import type { Client, ClientView } from 'scope-connect/client'
import { useClientView } from 'scope-connect/react'

/** When the Connect button is enabled: whenever `connect()` would start a connection. */
export function connectEnabled(view: ClientView): boolean {
  return view.canConnect
}

export interface ConnectPanelProps {
  client: Client
  /** The wallet the "Use MetaMask" button selects. */
  walletId?: string
  /** When Connect is enabled (default `connectEnabled`; the UI tests plant a bug here). */
  isConnectEnabled?: (view: ClientView) => boolean
}

/** The app's handlers keep a flow's rejection: the view shows it (`view.error`). */
const quietly = (work: Promise<unknown>) => {
  work.catch(() => {})
}

/**
 * The connect panel: its status, the account and chain, the last error, and one button per user
 * action, each enabled exactly when the view says the action can happen.
 */
export function ConnectPanel({
  client,
  walletId = 'metamask',
  isConnectEnabled = connectEnabled,
}: ConnectPanelProps) {
  const view = useClientView(client)
  return (
    <section aria-label="Wallet">
      <p>
        Status: <output aria-label="status">{view.status}</output>
      </p>
      {view.isConnected && (
        <p>
          Account: <output aria-label="account">{view.address}</output> on{' '}
          <output aria-label="chain">{view.chainId}</output>
        </p>
      )}
      {view.error && (
        <p role="alert" data-code={view.error.code}>
          {view.error.code === 'USER_REJECTED'
            ? 'You rejected the request in your wallet.'
            : view.error.message}
        </p>
      )}
      {/* Another wallet can be chosen at any time: the flow in progress ends (ABORTED). */}
      <button
        type="button"
        onClick={() => quietly(client.selectWallet(walletId, { namespace: 'eip155' }))}
      >
        Use MetaMask
      </button>
      {/* A phone wallet pairs over the relay: the URI is the QR code to show (here, a link). */}
      <button
        type="button"
        disabled={view.isBusy}
        onClick={() =>
          quietly(
            client
              .pair({ metadata: { name: 'React example', url: location.origin } })
              .then((flow) => flow.approval),
          )
        }
      >
        Pair a phone
      </button>
      {view.pairingUri && (
        <p>
          Scan with your wallet: <a href={view.pairingUri}>pairing link</a>
        </p>
      )}
      <button
        type="button"
        disabled={!isConnectEnabled(view)}
        onClick={() => quietly(client.connect())}
      >
        Connect
      </button>
      <button type="button" disabled={!view.canCancel} onClick={() => client.cancel()}>
        Cancel
      </button>
      <button
        type="button"
        disabled={!view.canSign}
        onClick={() => quietly(client.signMessage('Hello from the React example'))}
      >
        Sign message
      </button>
      {view.isConnected && (
        <button type="button" onClick={() => quietly(client.disconnect())}>
          Disconnect
        </button>
      )}
    </section>
  )
}
