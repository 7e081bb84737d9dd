import type { Caip2ChainId } from 'scope-connect'
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
  /** The chains a "Switch to …" button is offered for (CAIP-2), the current one left out. */
  chains?: readonly Caip2ChainId[]
}

/** The chains of the panel: those of the test wallet, and one it has to add (4902). */
export const PANEL_CHAINS: readonly Caip2ChainId[] = [
  'eip155:1',
  'eip155:10',
  'eip155:8453',
  'eip155:42161',
]

/** What the status line says while a flow runs that the user should know about. */
const STATUS_NOTE: Partial<Record<ClientView['status'], string>> = {
  reconnecting: 'Restoring your wallet connection…',
  switchingChain: 'Confirm the network switch in your wallet.',
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
  chains = PANEL_CHAINS,
}: ConnectPanelProps) {
  const view = useClientView(client)
  // The chain and a transaction are asked of a desktop wallet, with no other flow in progress.
  const walletIdle = view.canSign && view.connectionKind === 'wallet' && view.pending === null
  return (
    <section aria-label="Wallet">
      <p>
        Status: <output aria-label="status">{view.status}</output>
        {STATUS_NOTE[view.status] && <small> {STATUS_NOTE[view.status]}</small>}
      </p>
      {view.pending === 'transaction' && (
        <p role="status" data-transaction="pending">
          Confirm the transaction in your wallet…
        </p>
      )}
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
      <button
        type="button"
        disabled={!walletIdle}
        onClick={() =>
          quietly(client.sendTransaction({ to: view.accounts[1] ?? view.address, value: 0n }))
        }
      >
        Send transaction
      </button>
      {view.isConnected &&
        view.connectionKind === 'wallet' &&
        chains
          .filter((chainId) => chainId !== view.chainId)
          .map((chainId) => (
            <button
              key={chainId}
              type="button"
              disabled={!walletIdle}
              onClick={() => quietly(client.switchChain(chainId))}
            >
              Switch to {chainId}
            </button>
          ))}
      {view.isConnected && (
        <button type="button" onClick={() => quietly(client.disconnect())}>
          Disconnect
        </button>
      )}
    </section>
  )
}
