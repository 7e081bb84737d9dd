import { describe, expect, expectTypeOf, it } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { clientSetup } from '../../machines/client/client.setup'
import type { ClientEvent, ConnectionStatus, LinkStatus } from '../../machines/client/client.types'
import { connectMachine } from '../../machines/connect/connect.machine'
import type { PairingEvent } from '../../machines/pairing/pairing.types'
import { relayConnectionMachine } from '../../machines/relay-connection/relay-connection.machine'
import { topState } from '../../machines/shared/top-state'
import type { UniversalLinkMachine } from '../../machines/universal-link/universal-link.machine'

// The `connection`, `universalLink`, `pairing` and `transaction` children report their state to the root as
// `*.CHANGED` events typed by the child's chart: a state name the child does not have does not
// compile, and a nested state reports its top-level state.

describe('child status reports', () => {
  it('topState gives the top-level state of a flat or nested value', () => {
    expect(topState('connected')).toBe('connected')
    expect(topState({ paired: 'idle' })).toBe('paired')
    expect(topState({ active: { flow: 'paired' } })).toBe('active')
    // Fault twin: what the reports were built with before matches no state once one is nested.
    expect(String({ paired: 'idle' })).toBe('[object Object]')
  })

  it("types the report with the child chart's states", () => {
    const snapshot = createActor(connectMachine, {
      input: { connectorId: 'c' },
    }).getSnapshot()
    const status = topState(snapshot.value)
    expect(status).toBe('idle')
    expectTypeOf(status).toEqualTypeOf<ConnectionStatus>()
    expectTypeOf<LinkStatus>().toEqualTypeOf<SnapshotFrom<UniversalLinkMachine>['value']>()
    expectTypeOf<ConnectionStatus>().toEqualTypeOf<SnapshotFrom<typeof connectMachine>['value']>()
  })

  it('a report or a guard naming a state the child does not have does not compile', () => {
    const report: ClientEvent = {
      type: 'CONNECTION.CHANGED',
      // @ts-expect-error — the connect machine has no state `conected`
      status: 'conected',
      connection: null,
      error: null,
      pairingUri: null,
    }
    const config = clientSetup.createStateConfig({
      on: {
        // @ts-expect-error — `childIn` takes only states a child reports, not `conected`
        'CONNECTION.CHANGED': {
          guard: { type: 'childIn', params: ['conected'] },
          target: 'idle',
        },
      },
    })
    expect(report.type).toBe('CONNECTION.CHANGED')
    expect(config.on).toBeDefined()
  })

  it("a transaction report is typed by the child's context: its flow and hash, nothing else", () => {
    const sent: ClientEvent = { type: 'TRANSACTION.CHANGED', flow: 2, hash: '0xab' }
    // @ts-expect-error — the flow is the number the root gave it (or null), not a string
    const misnumbered: ClientEvent = { type: 'TRANSACTION.CHANGED', flow: '2', hash: null }
    // @ts-expect-error — the retired reports are no event of the root any more
    const retired: ClientEvent = { type: 'TRANSACTION.SUBMITTED', flow: 2, hash: '0xab' }
    expect([sent.type, misnumbered.type, retired.type]).toEqual([
      'TRANSACTION.CHANGED',
      'TRANSACTION.CHANGED',
      'TRANSACTION.SUBMITTED',
    ])
  })

  it('the pairing follows its relay connection by snapshot: no host-provided report, a typed RELAY.STATUS', () => {
    // The untyped `sendParent` the pairing provided before has no action left to override.
    const provided = relayConnectionMachine.provide({
      // @ts-expect-error — the relay-connection chart has no `reportStatus` action any more
      actions: { reportStatus: () => undefined },
    })
    const online: PairingEvent = { type: 'RELAY.STATUS', status: 'online' }
    // @ts-expect-error — `closed` is the child's final state, reported to the pairing as `offline`
    const closed: PairingEvent = { type: 'RELAY.STATUS', status: 'closed' }
    expect(Object.keys(relayConnectionMachine.implementations.actions)).not.toContain(
      'reportStatus',
    )
    expect(provided.id).toBe('relayConnection')
    expect([online, closed].map((event) => event.type)).toEqual(['RELAY.STATUS', 'RELAY.STATUS'])
  })
})
