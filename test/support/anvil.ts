// The anvil launcher lives with the server's testing entry (`@scope-connect/server/testing`).
export {
  type RunningAnvil,
  type StartAnvilOptions,
  startAnvil,
} from '../../server/src/anvil'
