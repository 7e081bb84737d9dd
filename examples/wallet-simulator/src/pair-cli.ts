/**
 * Pair the wallet simulator with a dApp from the command line and answer its requests:
 *
 *   npx tsx examples/wallet-simulator/src/pair-cli.ts '<scope:… pairing URI>' [appKey]
 *
 * The URI names the relay; the relay token comes from the same backend with `appKey` (default
 * `sample-app-key`, the project of `npm start`). Approves with anvil's second dev account and a
 * fresh Solana key, signs every request, and runs until Ctrl-C.
 */

import type { WebSocketConstructor } from 'scope-connect/wallet'
import WebSocket from 'ws'
import { createRelayWalletSimulator } from './relay'

const [uri, appKey = 'sample-app-key'] = process.argv.slice(2)
if (!uri) {
  console.error("usage: pair-cli.ts '<pairing URI>' [appKey]")
  process.exit(2)
}
const simulator = createRelayWalletSimulator({
  appKey,
  WebSocket: WebSocket as unknown as WebSocketConstructor,
})
simulator.wallet.onSessionDelete(() => {
  console.log('the dApp ended the session')
  simulator.close()
})
const { proposal, session } = await simulator.pairAndApprove(uri)
console.log(`paired with ${proposal.proposer.metadata.name} (${proposal.proposer.metadata.url})`)
console.log(
  'accounts:',
  Object.values(session.namespaces).flatMap((n) => n.accounts),
)
process.on('SIGINT', async () => {
  await simulator.wallet.disconnect()
  simulator.close()
})
