import type { IWalletConnector, RequestArgs } from '../../src/connectors/types'
import { checkedAnswer, checkedConnection, checkedEvent } from '../../src/connectors/wallet-answers'
import { AppError } from '../../src/errors/app-error'
import type { ChainNamespace } from '../../src/registry/types'
import { createConnectActors } from '../connect/connect.actors'
import { type ConnectMachine, connectMachine } from '../connect/connect.machine'
import { createSignActors } from '../sign/sign.actors'
import { type SignMachine, signMachine } from '../sign/sign.machine'

/** What the `connect` and `sign` children of the root machine need from the `Client`. */
export interface WalletEnvironment {
  /** The connector the root's `loadConnector` made current (null before). */
  connector(): IWalletConnector | null
  /** Told every secret value a wallet answers with (signatures), for redaction by value. */
  onSecret?: (value: string) => void
}

/** The root machine's desktop-wallet children, bound to whichever connector is current. */
export interface WalletMachines {
  connection: ConnectMachine
  sign: SignMachine
}

const noConnector = (): never => {
  throw new AppError('NOT_CONNECTED', 'No wallet connector is selected.')
}

/** Collects the strings of a wallet answer (a signature, `{ signature, publicKey }`, …). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) strings(item, out)
  return out
}

/**
 * The `connect` and `sign` machines (the root's `connection` and `sign` actors) bound to whichever
 * connector is current. The `Client` loads them with the first desktop connector (a dynamic
 * import), so apps on the universal-link flow only never ship them. A Solana `signTransaction`
 * answer without a `signature` field (an extension's `{ signedTransaction }`) reaches the sign
 * machine as its JSON, which the facade parses back.
 */
export function createWalletMachines(env: WalletEnvironment): WalletMachines {
  const current = (): IWalletConnector => env.connector() ?? noConnector()
  // Every answer of the connector is checked here, once (src/connectors/wallet-answers.ts): a
  // connection, an event, a signature of the wrong shape is a WALLET_ERROR, or a dropped event.
  let namespace: ChainNamespace | null = null
  const connected = (value: unknown) => {
    const connection = checkedConnection(value)
    namespace = connection.namespace
    return connection
  }
  const proxy: IWalletConnector = {
    get id() {
      return current().id
    },
    isAvailable: () => current().isAvailable(),
    connect: async () => connected(await current().connect()),
    reconnect: async () => {
      const connector = current()
      const connection = connector.reconnect ? await connector.reconnect() : null
      return connection === null ? null : connected(connection)
    },
    getAccounts: () => current().getAccounts(),
    disconnect: () => current().disconnect(),
    subscribe: (listener) =>
      current().subscribe?.((event) => {
        const checked = checkedEvent(event, namespace)
        if (!checked) return
        // A WalletConnect URI carries the pairing key: a secret before any chart sees it.
        if (checked.type === 'displayUri') env.onSecret?.(checked.uri)
        listener(checked)
      }) ?? (() => {}),
    async request<T>(args: RequestArgs): Promise<T> {
      const answer = checkedAnswer(args.method, await current().request<unknown>(args))
      for (const value of strings(answer)) env.onSecret?.(value)
      if (
        args.method === 'solana_signTransaction' &&
        typeof answer === 'object' &&
        answer !== null &&
        typeof (answer as { signature?: unknown }).signature !== 'string'
      ) {
        const json = JSON.stringify(answer)
        env.onSecret?.(json)
        return { signature: json } as T
      }
      return answer as T
    },
  }
  return {
    connection: connectMachine.provide({ actors: createConnectActors(proxy) }),
    sign: signMachine.provide({ actors: createSignActors(proxy) }),
  }
}
