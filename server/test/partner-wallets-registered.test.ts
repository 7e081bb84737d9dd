import { clearPartnerWallets, registerPartnerWallets } from 'scope-connect'
import { TEST_PARTNER_WALLET, TEST_PARTNER_WALLET_ID } from 'scope-connect/testing'
import type { PartnerWalletEntry } from 'scope-connect/wire'
import { afterEach, describe, expect, it } from 'vitest'
import { ProjectsConfigError, parseProjectsConfig } from '../src/config/projects'
import { TEST_PROJECT } from './support/server'

// The library's registry is one per process: a Client built with `partnerWallets` (a test, a
// server-side render) registers them there. The projects file is checked against the built-in
// wallets only, whatever that process registered.

afterEach(() => clearPartnerWallets())

const declaring = () => ({
  projects: [
    {
      ...TEST_PROJECT,
      wallets: [...TEST_PROJECT.wallets, TEST_PARTNER_WALLET_ID],
      partnerWallets: [structuredClone(TEST_PARTNER_WALLET) as PartnerWalletEntry],
    },
  ],
})

function problemsOf(value: unknown): string[] {
  try {
    parseProjectsConfig(value)
  } catch (error) {
    expect(error).toBeInstanceOf(ProjectsConfigError)
    return (error as ProjectsConfigError).problems
  }
  return []
}

describe('a partner wallet registered in the process is no built-in for the projects file', () => {
  it('error: a project declaring the partner still loads after a Client registered it', () => {
    registerPartnerWallets([TEST_PARTNER_WALLET])
    expect(problemsOf(declaring())).toEqual([])
    // Twice: each server a test starts parses the same file again.
    expect(parseProjectsConfig(declaring()).projects[0]?.partnerWallets?.[0]?.id).toBe(
      TEST_PARTNER_WALLET_ID,
    )
  })

  it('error: a project naming a partner it does not declare is refused, registered or not', () => {
    const naming = { projects: [{ ...TEST_PROJECT, wallets: [TEST_PARTNER_WALLET_ID] }] }
    expect(problemsOf(naming)).toEqual([
      `projects[0].wallets[0]: unknown wallet ${TEST_PARTNER_WALLET_ID}`,
    ])
    registerPartnerWallets([TEST_PARTNER_WALLET])
    expect(problemsOf(naming)).toEqual([
      `projects[0].wallets[0]: unknown wallet ${TEST_PARTNER_WALLET_ID}`,
    ])
  })
})
