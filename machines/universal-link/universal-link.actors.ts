import { fromPromise } from 'xstate'
import { AppError } from '../../src/errors/app-error'
import type { GenericWalletSessionClient } from '../../src/session/client'
import { type PollGenericSessionOptions, pollGenericSessionResult } from '../../src/session/poll'
import type { SessionIntent } from '../../src/wire/schemas'
import type {
  AwaitWalletInput,
  AwaitWalletOutput,
  UniversalLinkSession,
} from './universal-link.types'

export interface UniversalLinkActorOptions {
  /** The intent recorded on the backend session; `transaction` also allows message signing. */
  intent: SessionIntent
  /** Passed to every poll (cadence, attempt cap, inspector). The deadline is the session's expiry. */
  poll?: Omit<PollGenericSessionOptions, 'until' | 'signal' | 'timeoutMs' | 'onUpdate'>
}

/**
 * The universal-link machine's I/O: session creation and waiting for the wallet. `awaitWallet` is a
 * promise actor on purpose: XState restarts a running promise actor when a snapshot is restored,
 * so polling resumes after the reload, against the same absolute deadline (the session expiry).
 */
export function createUniversalLinkActors(
  client: GenericWalletSessionClient,
  options: UniversalLinkActorOptions,
) {
  return {
    createSession: fromPromise<UniversalLinkSession, { chainId: string; walletId: string }>(
      async ({ input }) => {
        const session = await client.createSession(input.chainId, {
          walletSlug: input.walletId,
          intent: options.intent,
        })
        return {
          sessionId: session.sessionId,
          nonce: session.nonce,
          sessionToken: session.sessionToken,
          expiresAt: session.expiresAt,
        }
      },
    ),
    awaitWallet: fromPromise<AwaitWalletOutput, AwaitWalletInput>(async ({ input, signal }) => {
      const remainingMs = input.session.expiresAt - Date.now()
      if (remainingMs <= 0) throw new AppError('SESSION_EXPIRED', 'The wallet session expired.')
      const result = await pollGenericSessionResult(
        client,
        input.session.sessionId,
        input.session.sessionToken,
        {
          ...options.poll,
          until: input.until,
          signal,
          timeoutMs: remainingMs,
        },
      )
      return {
        walletAddress: result.walletAddress,
        signature: result.signature,
        txSignature: result.txSignature,
      }
    }),
  }
}
