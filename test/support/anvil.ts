// The anvil launcher lives with the server's testing entry (`@scope-connect/server/testing`).
export {
  freePort,
  type RunningAnvil,
  type StartAnvilOptions,
  startAnvil,
} from '../../server/src/anvil'
