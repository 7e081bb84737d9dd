/**
 * State descriptions drawn in the diagrams for machines that do not carry them: the root machine
 * is in every app's entry chunk, where its descriptions would cost bytes and serve no one but the
 * reader of its diagram. Keyed by state node id.
 */
export const DIAGRAM_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'client.idle': 'No connector selected.',
  'client.selecting': 'Loading the connector of the chosen wallet.',
  'client.wallet': 'A desktop (or custom) connector, driven by the connect machine.',
  'client.wallet.reconnecting':
    'resume(): the stored connection, asked of the wallet without a prompt (eth_accounts, a silent connect).',
  'client.wallet.switchingChain':
    'switchChain(): wallet_switchEthereumChain, and wallet_addEthereumChain from the registry on 4902.',
  'client.link': 'A mobile wallet over a universal link, driven by the universalLink machine.',
  'client.relay': 'A wallet paired over the relay (pair()), driven by the pairing machine.',
  'client.relay.pairing': 'The proposal is on the relay: show the URI until the wallet answers.',
  'client.relay.disconnecting': 'The session delete is sent to the wallet; the pairing then ends.',
}
