import { describe, expect, it } from 'vitest'
import type { Snapshot } from 'xstate'
import { checkRestorable } from '../../machines/client/client.persistence'
import { UNIVERSAL_LINK_RECORD_SCHEMA } from '../../machines/client/client.restore-values'
import { dropRetiredOutcome } from '../../machines/shared/retired-outcome'
import { universalLinkMachine } from '../../machines/universal-link/universal-link.machine'
import {
  UNIVERSAL_LINK_STATE_FORMAT,
  UNIVERSAL_LINK_STATE_FORMAT_VERSION,
} from '../../src/universal-link/persisted-state'

// Records written before the flows' final states gave output keep `outcome: null` in the flow's
// context. Read, it is dropped, so the record restores under the same record schema.

const linkContext = () => ({ walletId: 'w', chainId: 'solana:x', outcome: null, signatures: 0 })

describe('dropRetiredOutcome', () => {
  it("drops `outcome` from the named child's context and keeps everything else", () => {
    const record = {
      fingerprint: 'client.link@1',
      snapshot: {
        value: 'link',
        context: { outcome: { flow: 1 } },
        children: {
          universalLink: { src: 'universalLink', snapshot: { value: 'x', context: linkContext() } },
          other: { snapshot: { context: { outcome: null } } },
        },
      },
    }
    const upgraded = dropRetiredOutcome(record, 'universalLink')
    expect(upgraded).toEqual({
      fingerprint: 'client.link@1',
      snapshot: {
        value: 'link',
        // The root's own `outcome` (its operation's) and other children are not the flow's.
        context: { outcome: { flow: 1 } },
        children: {
          universalLink: {
            src: 'universalLink',
            snapshot: {
              value: 'x',
              context: { walletId: 'w', chainId: 'solana:x', signatures: 0 },
            },
          },
          other: { snapshot: { context: { outcome: null } } },
        },
      },
    })
    // The stored value is not changed: a copy is returned.
    expect(record.snapshot.children.universalLink.snapshot.context).toHaveProperty('outcome')
  })

  it("drops `outcome` from the record's own snapshot without a child name", () => {
    const upgraded = dropRetiredOutcome({ snapshot: { value: 'x', context: linkContext() } })
    expect(upgraded.snapshot.context).toEqual({ walletId: 'w', chainId: 'solana:x', signatures: 0 })
  })

  it.each([
    ['a record of today', { snapshot: { context: { walletId: 'w' } } }, undefined],
    ['no record', null, 'pairing'],
    ['a record without the child', { snapshot: { children: {} } }, 'pairing'],
    [
      'a child without context',
      { snapshot: { children: { pairing: { snapshot: {} } } } },
      'pairing',
    ],
  ] as const)('returns %s as it is', (_name, record, child) => {
    expect(dropRetiredOutcome(record, child)).toBe(record)
  })

  it('restores a connected link record of before; fault twin: without it, the context does not fit', () => {
    const connected = universalLinkMachine.resolveState({
      value: 'connected',
      context: {
        walletId: 'w',
        chainId: 'solana:x',
        session: { sessionId: 's', nonce: 'n', expiresAt: Number.MAX_SAFE_INTEGER },
        walletAddress: 'addr',
        connection: null,
        request: null,
        signature: null,
        txSignature: null,
        signatures: 0,
        error: null,
        pollIntervalMs: null,
      },
    })
    const today = universalLinkMachine.getPersistedSnapshot(connected) as Snapshot<unknown> & {
      context: Record<string, unknown>
    }
    const before = {
      format: UNIVERSAL_LINK_STATE_FORMAT,
      formatVersion: UNIVERSAL_LINK_STATE_FORMAT_VERSION,
      fingerprint: UNIVERSAL_LINK_RECORD_SCHEMA,
      savedAt: 0,
      expiresAt: Number.MAX_SAFE_INTEGER,
      tokens: {},
      snapshot: { ...today, context: { ...today.context, outcome: null } },
    }
    const options = { machine: universalLinkMachine, fingerprint: UNIVERSAL_LINK_RECORD_SCHEMA }
    expect(checkRestorable(dropRetiredOutcome(before), options)).toMatchObject({ ok: true })
    expect(checkRestorable(before, options)).toEqual({
      ok: false,
      reason: 'the snapshot context does not have the fields of this machine',
    })
  })
})
