// The relay test double lives in the testing kit (scope-connect/testing); the relay tests use it from there.
export {
  createRelayDouble,
  type DoubleSocket,
  type RelayDouble,
} from '../../../src/testing/doubles/relay-double'
