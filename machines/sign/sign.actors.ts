import { fromPromise } from 'xstate'
import type { IWalletConnector } from '../../src/connectors/types'
import { AppError } from '../../src/errors/app-error'
import { invalidArgument, isObject, requireString } from '../../src/errors/arguments'
import type { GenericWalletSessionClient } from '../../src/session/client'
import type { GenericSessionResult } from '../../src/session/types'
import { buildSignedMessageEnvelope } from '../../src/wire/envelope'
import { toErrorData } from '../shared/error-data'
import { walletErrorData } from '../shared/wallet-error-data'
import { signRequest } from './sign.requests'
import type { SignInput, SignRequest, VerifySignatureInput } from './sign.types'

/** Backend verification bound to a session: the client and the session's token (kept out of context). */
export interface SignVerifier {
  client: Pick<GenericWalletSessionClient, 'verify'>
  /** The session token, or a getter (e.g. reading a vault). */
  sessionToken: string | (() => string | undefined)
}

/**
 * Input for signing a backend session: `personal_sign` of
 * `buildSignedMessageEnvelope(sessionId, nonce, address, timestamp)`, verified by the backend.
 * @throws `INVALID_CONFIG` when `session`, `address` or `timestamp` are not of their types (or the
 * envelope refuses them).
 */
export function sessionSignInput(
  session: { sessionId: string; nonce: string },
  address: string,
  timestamp: number = Date.now(),
): Required<SignInput> {
  if (
    !isObject(session) ||
    typeof session.sessionId !== 'string' ||
    typeof session.nonce !== 'string'
  )
    throw invalidArgument(
      'sessionSignInput: session',
      'must be an object with `sessionId` and `nonce` strings',
    )
  requireString(address, 'sessionSignInput: address')
  if (typeof timestamp !== 'number' || !Number.isFinite(timestamp))
    throw invalidArgument('sessionSignInput: timestamp', 'must be a finite number')
  const message = buildSignedMessageEnvelope(session.sessionId, session.nonce, address, timestamp)
  return {
    request: signRequest(message, address),
    verify: { sessionId: session.sessionId, walletAddress: address, timestamp },
  }
}

/**
 * The sign machine's I/O: `requestSignature` (`connector.request`, expecting a signature string, or an object with one)
 * and `verifySignature` (`client.verify` with the closure-held token). Errors are thrown as
 * JSON-safe data: `USER_REJECTED` for a 4001, `WALLET_ERROR` otherwise, `BACKEND_ERROR` from verify.
 */
export function createSignActors(connector: IWalletConnector, verifier?: SignVerifier) {
  return {
    requestSignature: fromPromise<string, SignRequest>(async ({ input }) => {
      let answer: unknown
      try {
        answer = await connector.request<unknown>({ method: input.method, params: input.params })
      } catch (error) {
        throw walletErrorData(error)
      }
      // EVM wallets answer with the signature; Solana wallets with `{ signature, publicKey }`.
      const signature =
        typeof answer === 'object' && answer !== null
          ? (answer as { signature?: unknown }).signature
          : answer
      if (typeof signature !== 'string' || signature === '') {
        throw toErrorData(
          new AppError('WALLET_ERROR', `The wallet answered ${input.method} without a signature.`),
          'WALLET_ERROR',
        )
      }
      return signature
    }),
    verifySignature: fromPromise<GenericSessionResult, VerifySignatureInput>(async ({ input }) => {
      if (!verifier) {
        throw { code: 'INVALID_CONFIG', message: 'No session client was given for verification.' }
      }
      const token =
        typeof verifier.sessionToken === 'function'
          ? verifier.sessionToken()
          : verifier.sessionToken
      if (!token) throw { code: 'INVALID_CONFIG', message: 'No session token for verification.' }
      try {
        return await verifier.client.verify(input.sessionId, token, {
          walletAddress: input.walletAddress,
          signature: input.signature,
          timestamp: input.timestamp,
        })
      } catch (error) {
        throw toErrorData(error, 'BACKEND_ERROR')
      }
    }),
  }
}
