/**
 * State descriptions drawn in the diagrams for machines that do not carry them: the root machine
 * is in every app's entry chunk, where its descriptions would cost bytes and serve no one but the
 * reader of its diagram. Keyed by state node id.
 */
export const DIAGRAM_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'client.idle': 'No connector selected.',
  'client.selecting': 'Loading the connector of the chosen wallet.',
  'client.wallet': 'A desktop (or custom) connector, driven by the connect machine.',
  'client.link': 'A mobile wallet over a universal link, driven by the universalLink machine.',
  'client.relay': 'A wallet paired over the relay (pair()), driven by the pairing machine.',
  'client.relay.pairing': 'The proposal is on the relay: show the URI until the wallet answers.',
  'client.relay.disconnecting': 'The session delete is sent to the wallet; the pairing then ends.',
}
