// The chunk `selectWallet` loads by dynamic import: a module no entry point imports statically, so
// bundlers split it off (esbuild keeps a dynamic target that the entry also reaches in its chunks).
export { MetaMaskSdkConnector } from '../metamask-sdk'
