// The chunk the client loads for Phantom's deeplinks, by dynamic import: the connector and its store.
export { createBrowserPhantomLinkStore } from '../browser-store'
export { PhantomLinkConnector } from '../face/connector'
