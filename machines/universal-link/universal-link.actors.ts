import { fromPromise } from 'xstate'
import { requireFunction, requireObject } from '../../src/errors/arguments'
import type { GenericWalletSessionClient } from '../../src/session/client'
import { checkedSessionResult } from '../../src/session/result-answers'
import type { SessionIntent } from '../../src/wire/schemas'
import type {
  PollingEnvironment,
  SessionTokenVault,
} from '../session-polling/session-polling.actors'
import { provideSessionPolling } from '../session-polling/session-polling.facade'
import { requireMethods } from '../shared/argument-shapes'
import type { CreateUniversalLinkSessionInput, UniversalLinkSession } from './universal-link.types'

/** Options of `createUniversalLinkActors`. */
export interface UniversalLinkActorOptions extends PollingEnvironment {
  /** The intent recorded on the backend session; `transaction` also allows message signing. */
  intent: SessionIntent
  /** Where the session token is kept, keyed by session id (never in the machine's context). */
  vault: SessionTokenVault
  /** Told every secret value the actors see (session token, nonce, signatures), for redaction by value. */
  onSecret?: (value: string) => void
}

/**
 * The universal-link machine's I/O: `createSession` (POST /sessions; the token goes to the vault)
 * and `poll`, the `sessionPolling` machine bound to the same client and vault. Polling is a child
 * machine, so it is inspected and persisted with the flow, and restored as a machine.
 * @throws `INVALID_CONFIG` when `client` lacks `createSession` / `getResult`, or `options` (its
 * vault, clocks, `onSecret`) are not of their types.
 */
export function createUniversalLinkActors(
  client: Pick<GenericWalletSessionClient, 'createSession' | 'getResult'>,
  options: UniversalLinkActorOptions,
) {
  const fn = 'createUniversalLinkActors'
  requireMethods(client, `${fn}: client`, 'createSession getResult')
  requireObject(options, `${fn}: options`)
  requireObject(options.vault, `${fn}: options.vault`)
  requireFunction(options.now, `${fn}: options.now`, true)
  requireFunction(options.random, `${fn}: options.random`, true)
  requireFunction(options.onSecret, `${fn}: options.onSecret`, true)
  const secret = (value: string | null | undefined) => {
    if (value) options.onSecret?.(value)
  }
  const watched = {
    createSession: client.createSession.bind(client),
    getResult: async (sessionId: string, token: string) => {
      const result = await client.getResult(sessionId, token)
      secret(result.signature)
      secret(result.txSignature)
      // The wallet's answers the backend reports are checked as every wallet answer is.
      checkedSessionResult(result)
      return result
    },
  }
  const env: PollingEnvironment = {
    ...(options.now ? { now: options.now } : {}),
    ...(options.random ? { random: options.random } : {}),
  }
  return {
    createSession: fromPromise<UniversalLinkSession, CreateUniversalLinkSessionInput>(
      async ({ input }) => {
        const { sessionToken, sessionId, nonce, expiresAt } = await client.createSession(
          input.chainId,
          { walletSlug: input.walletId, intent: options.intent },
        )
        secret(sessionToken)
        // The nonce is a callback credential (whoever holds it can answer /callback/connect).
        secret(nonce)
        options.vault.set(sessionId, sessionToken)
        return { sessionId, nonce, expiresAt }
      },
    ),
    poll: provideSessionPolling(watched, options.vault, env),
  }
}
