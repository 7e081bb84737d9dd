import { AppError } from '../errors/app-error'
import type { CLIENT_PARAMETERS, ClientParameterMethod } from './parameters'

// The `Client`'s parameter checks live in a chunk of their own (zod/mini would double the
// `Client` entry): it starts loading with the first Client, and from then on each check runs at
// once, so a method still sends its event in the same tick it was called.

type Checks = typeof CLIENT_PARAMETERS
let checks: Checks | null = null
let loading: Promise<Checks> | null = null

/** Loads the parameter checks (once). */
export function loadParameterChecks(): Promise<Checks> {
  loading ??= import('./parameters').then(
    (module) => {
      checks = module.CLIENT_PARAMETERS
      return checks
    },
    (error: unknown) => {
      loading = null // tried again by the next call
      throw error
    },
  )
  return loading
}

/**
 * Checks the parameters of `method`: at once when the checks are loaded (throws), else a promise
 * that settles once they are. @throws `INVALID_CONFIG` naming the field.
 */
export function checkParameters<M extends ClientParameterMethod>(
  method: M,
  ...args: Parameters<Checks[M]>
): Promise<void> | undefined {
  const run = (loaded: Checks) => (loaded[method] as (...a: unknown[]) => void)(...args)
  if (checks) {
    run(checks)
    return undefined
  }
  return loadParameterChecks().then(run)
}

/** `signMessage({ raw })` on a Solana connection: raw bytes are for EVM (the field in `details`). */
export function rawIsEvmOnly(): AppError {
  const reason = 'is for EVM connections: sign Solana text as a string'
  return new AppError('INVALID_CONFIG', `Invalid message.raw: ${reason}.`, {
    details: [{ field: 'message.raw', reason }],
  })
}
