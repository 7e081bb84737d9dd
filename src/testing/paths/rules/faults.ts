import type { BackendFault } from '../../doubles/answers'
import type { FaultStep } from '../types'
import type { StepRule } from './outcome'
import {
  backendError,
  canConnectPhone,
  current,
  DESKTOP,
  LINK,
  linkDone,
  PAIRING,
  timedOut,
  transactionUnsent,
  view,
} from './shared'

// What fails or stays silent: the backend's reads, the session creation, the relay's socket, and
// the transaction's wallet that never answers (the root's own named timeouts come from the chart).

/** The reads a backend fault step fails, and how. */
const FAULTS = [
  { at: 'config', faults: ['down', 'status503', 'garbage'] },
  { at: 'balance', faults: ['down', 'status503', 'garbage'] },
] as const satisfies ReadonlyArray<{ at: FaultStep['at']; faults: readonly BackendFault[] }>
const FAULT_READS = {
  config: 'GET /config',
  balance: 'GET /balances',
  relaySocket: 'the relay',
  sessions: 'POST /sessions',
}
const FAULT_WORDS: Partial<Record<BackendFault, string>> = {
  down: 'fails: the backend is down',
  status503: 'answers 503',
  garbage: 'answers a garbage body',
}

/**
 * The transaction's chart bounds the wallet's answer with its own `walletAnswerMs`, which the
 * paths' Client sets to the root's (`PATH_TIMEOUTS`); it tells the root it failed.
 */
export const transactionTimeout: StepRule = {
  id: 'time.transaction',
  flows: DESKTOP,
  at: (snapshot) =>
    snapshot.context.pending === 'transaction'
      ? {
          step: {
            kind: 'time',
            timeout: 'walletAnswerMs',
            description: 'nobody answers: walletAnswerMs passes (the transaction)',
          },
          events: [transactionUnsent('failed', timedOut)],
        }
      : null,
}

/** A read fails, then succeeds: once per connection, where nothing else is going on. */
const readFaults = /* @__PURE__ */ FAULTS.flatMap(({ at, faults }) =>
  faults.map(
    (fault): StepRule => ({
      id: `fault.${at}.${fault}`,
      flows: DESKTOP,
      at: (snapshot) => {
        const now = current(snapshot)
        if (now === null || now.isBusy || now.error !== null) return null
        return {
          step: {
            kind: 'fault',
            fault,
            at,
            description: `${FAULT_READS[at]} ${FAULT_WORDS[fault]}; read again, it succeeds`,
          },
          events: [],
        }
      },
    }),
  ),
)

/** The user connects over a universal link and the backend fails the session: the flow fails. */
const sessionFaults = /* @__PURE__ */ (['down', 'status503'] as const).map(
  (fault): StepRule => ({
    id: `fault.sessions.${fault}`,
    flows: LINK,
    at: (snapshot) => {
      if (!canConnectPhone(snapshot)) return null
      return {
        step: {
          kind: 'fault',
          fault,
          at: 'sessions',
          description: `connects, and ${FAULT_READS.sessions} ${FAULT_WORDS[fault]} (the flow fails)`,
        },
        // The child fails to create the session: the wallet is never opened.
        events: [{ type: 'CONNECT' }, linkDone('failed', backendError)],
        shows: ['connecting', 'disconnected'],
      }
    },
  }),
)

const relaySocketDrop: StepRule = {
  id: 'fault.relaySocket.drop',
  flows: PAIRING,
  at: (snapshot) =>
    view(snapshot).status === 'pairing'
      ? {
          step: {
            kind: 'fault',
            fault: 'drop',
            at: 'relaySocket',
            description: 'the relay drops the socket (the relay client opens a new one)',
          },
          events: [],
        }
      : null,
}

/** The backend's and the relay's faults, in the table's order. */
export const faultRules: StepRule[] = /* @__PURE__ */ readFaults.concat(
  sessionFaults,
  relaySocketDrop,
)
