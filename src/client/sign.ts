import { waitFor } from 'xstate'
import { toAppError } from '../../machines/shared/error-data'
import type { InspectionOptions } from '../../machines/shared/inspect'
import { personalSignRequest } from '../../machines/sign/sign.actors'
import { createSignActor } from '../../machines/sign/sign.facade'
import type { SignRequest } from '../../machines/sign/sign.types'
import type { IWalletConnector, WalletConnection } from '../connectors/types'
import { typedDataJson } from '../eip3009/sign-over-relay'

// The Client's signing with a connector, loaded on the first signature (a dynamic import): the
// sign machine is not part of what every page load pays for.

/** What the Client asks a connector to sign. */
export type ClientSignPayload = { message: string } | { typedData: object }

/** The wallet call for a payload: `personal_sign`, `solana_signMessage` or `eth_signTypedData_v4`. */
export function signRequestFor(
  payload: ClientSignPayload,
  connection: WalletConnection,
): SignRequest {
  const address = connection.accounts[0] ?? ''
  if ('typedData' in payload) {
    return { method: 'eth_signTypedData_v4', params: [address, typedDataJson(payload.typedData)] }
  }
  return connection.namespace === 'eip155'
    ? personalSignRequest(payload.message, address)
    : { method: 'solana_signMessage', params: { message: payload.message } }
}

/** Runs the sign machine on `connector` and settles with the signature or the machine's error. */
export async function signWithConnector(
  connector: IWalletConnector,
  request: SignRequest,
  inspection: InspectionOptions,
): Promise<string> {
  const actor = createSignActor(connector, { input: { request }, ...inspection }).start()
  actor.send({ type: 'SIGN' })
  const snapshot = await waitFor(
    actor,
    (s) => s.status !== 'active' || s.matches('rejected') || s.matches('failed'),
    { timeout: Number.POSITIVE_INFINITY },
  )
  actor.stop()
  if (snapshot.status === 'done' && snapshot.output) return snapshot.output.signature
  throw toAppError(
    snapshot.context.error ?? { code: 'WALLET_ERROR', message: 'The wallet did not sign.' },
  )
}
