import { describe, expect, it } from 'vitest'
import * as machines from '../machines/index'
import * as api from '../src/index'
import * as wire from '../src/wire/index'

// The public surface, snapshotted: an API change shows in review as a change to this snapshot.
describe('public exports', () => {
  it('scope-connect', () => {
    expect(Object.keys(api).sort()).toMatchSnapshot()
  })

  it('scope-connect/machines', () => {
    expect(Object.keys(machines).sort()).toMatchSnapshot()
  })

  it('scope-connect/wire', () => {
    expect(Object.keys(wire).sort()).toMatchSnapshot()
  })
})
