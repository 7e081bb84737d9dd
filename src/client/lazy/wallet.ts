// The chunk the client loads with the first desktop connector, by dynamic import: the `connect`
// and `sign` machines stay out of the `Client` entry until a wallet extension is selected.
export { createWalletMachines } from '../../../machines/client/client.wallet'
