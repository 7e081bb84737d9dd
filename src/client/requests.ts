import type { SignRequest } from '../../machines/sign/sign.types'
import { typedDataJson } from '../eip3009/sign-over-relay'

/** `eth_signTypedData_v4` as the sign machine sends it: `[address, JSON]`, bigints as decimal strings. */
export function typedDataRequest(typedData: object, address: string): SignRequest {
  return { method: 'eth_signTypedData_v4', params: [address, typedDataJson(typedData)] }
}
