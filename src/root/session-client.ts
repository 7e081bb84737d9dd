export { GenericWalletSessionClient } from '../session/client'
