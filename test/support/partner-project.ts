import type { ProjectConfig } from '../../server/src/config/projects-schema'
import { TEST_PARTNER_WALLET } from '../../src/testing/doubles/partner-wallet'
import type { PartnerWalletEntry } from '../../src/wire'

/**
 * `project` with the test kit's partner wallet (`TEST_PARTNER_WALLET`) declared and enabled: the
 * one wallet whose `sc*` universal links and `scr` relay the backend accepts sessions for (no
 * built-in brand declares them).
 */
export function withTestPartnerWallet(project: ProjectConfig): ProjectConfig {
  return {
    ...project,
    wallets: [...project.wallets, TEST_PARTNER_WALLET.id],
    partnerWallets: [
      ...(project.partnerWallets ?? []),
      structuredClone(TEST_PARTNER_WALLET) as PartnerWalletEntry,
    ],
  }
}
