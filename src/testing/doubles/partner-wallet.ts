import type { PartnerWalletInput } from '../../registry/partners'

/**
 * The id of the test kit's partner wallet: the one wallet in tests and demos that declares the
 * scope-connect protocols (`sc*` universal links, `scr` relay). Built-in brands declare neither.
 */
export const TEST_PARTNER_WALLET_ID = 'scope-test-wallet'

/**
 * The test kit's partner wallet entry, for `ClientOptions.partnerWallets` or
 * `registerPartnerWallets`: "Scope Test Wallet", `sc*` universal links and the `scr` relay on
 * eip155 and solana. Its universal link is never opened in tests (`openLink` is the test's).
 */
export const TEST_PARTNER_WALLET: PartnerWalletInput = {
  id: TEST_PARTNER_WALLET_ID,
  name: 'Scope Test Wallet',
  homepage: 'https://wallet.scope-connect.test',
  mobile: {
    universalLink: 'https://wallet.scope-connect.test/ul/',
    namespaces: ['eip155', 'solana'],
  },
  relay: { namespaces: ['eip155', 'solana'] },
}
