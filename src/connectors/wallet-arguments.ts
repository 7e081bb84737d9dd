import { invalidArgument, isObjectLike } from '../errors/arguments'

// Boundary checks of the functions that take a registry wallet (`info`) and a namespace: cheap
// typeof tests, so a caller's wrong argument is an AppError naming it, never a raw TypeError.

/**
 * `info` must be a wallet entry: an object with a string `name` and a `namespaces` array.
 * @throws AppError `INVALID_CONFIG` naming `info` otherwise.
 */
export function checkWalletInfo(info: unknown): void {
  if (!isObjectLike(info) || typeof info.name !== 'string' || !Array.isArray(info.namespaces)) {
    throw invalidArgument('info', 'must be a registry wallet (getWalletInfo / resolveWalletInfo)')
  }
}

/**
 * `namespace` must be `'eip155'` or `'solana'`.
 * @throws AppError `INVALID_CONFIG` naming `namespace` otherwise.
 */
export function checkNamespace(namespace: unknown): void {
  if (namespace !== 'eip155' && namespace !== 'solana') {
    throw invalidArgument('namespace', "must be 'eip155' or 'solana'")
  }
}
