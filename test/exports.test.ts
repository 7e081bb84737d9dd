import { describe, expect, it } from 'vitest'
import * as machines from '../machines/index'
import * as client from '../src/client/index'
import * as connectors from '../src/connectors/index'
import * as api from '../src/index'
import * as internal from '../src/internal/index'
import * as qr from '../src/qr/index'
import * as react from '../src/react/index'
import * as ui from '../src/ui/index'
import * as wagmi from '../src/wagmi/index'
import * as wallet from '../src/wallet/index'
import * as wire from '../src/wire/index'

// The public surface, snapshotted: an API change shows in review as a change to this snapshot.
describe('public exports', () => {
  it('scope-connect', () => {
    expect(Object.keys(api).sort()).toMatchSnapshot()
  })

  it('scope-connect/client', () => {
    expect(Object.keys(client).sort()).toMatchSnapshot()
  })

  it('scope-connect/connectors', () => {
    expect(Object.keys(connectors).sort()).toMatchSnapshot()
  })

  it('scope-connect/machines', () => {
    expect(Object.keys(machines).sort()).toMatchSnapshot()
  })

  it('scope-connect/internal (no semver guarantees: docs/internal.md)', () => {
    expect(Object.keys(internal).sort()).toMatchSnapshot()
  })

  it('scope-connect/machines keeps no internals (they are on scope-connect/internal)', () => {
    expect(Object.keys(machines).filter((name) => name in internal)).toEqual([])
    expect('createClientActor' in machines).toBe(false)
  })

  it('scope-connect/wallet', () => {
    expect(Object.keys(wallet).sort()).toMatchSnapshot()
  })

  it('scope-connect/qr', () => {
    expect(Object.keys(qr).sort()).toMatchSnapshot()
  })

  it('scope-connect/react', () => {
    expect(Object.keys(react).sort()).toMatchSnapshot()
  })

  it('scope-connect/ui', () => {
    expect(Object.keys(ui).sort()).toMatchSnapshot()
  })

  it('scope-connect/wagmi', () => {
    expect(Object.keys(wagmi).sort()).toMatchSnapshot()
  })

  it('scope-connect/wire', () => {
    expect(Object.keys(wire).sort()).toMatchSnapshot()
  })
})
