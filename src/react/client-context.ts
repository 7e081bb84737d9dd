import { createContext, createElement, type ReactNode, useContext } from 'react'
import type { Client } from '../client/client'
import { AppError } from '../errors/app-error'

const ClientContext = /* @__PURE__ */ createContext<Client | null>(null)

/** Props of `ClientProvider`: the `Client` its descendants' hooks use, and those descendants. */
export interface ClientProviderProps {
  client: Client
  children?: ReactNode
}

/**
 * Hands a `Client` to every hook below it (`useClient`, `useConnect`, `useBalance`, …), so no
 * component passes the client around. Create the client once, outside the component that renders
 * the provider; hooks given a client of their own use that one instead.
 */
export function ClientProvider({ client, children }: ClientProviderProps): ReactNode {
  return createElement(ClientContext.Provider, { value: client }, children)
}

/**
 * The `Client` of the nearest `ClientProvider`, or `client` when one is given.
 * @throws `INVALID_CONFIG` when there is neither.
 */
export function useClient(client?: Client): Client {
  const provided = useContext(ClientContext)
  const chosen = client ?? provided
  if (!chosen) {
    throw new AppError(
      'INVALID_CONFIG',
      'No Client: render the component inside <ClientProvider client={client}> or pass the client.',
    )
  }
  return chosen
}
