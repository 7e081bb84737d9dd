import { announceEip6963, createTestKeyProvider } from './injected'

// The browser script `npm run demo` puts into the dApp page before the page's own script: the
// simulator's "extension", anvil's first dev account, announced by EIP-6963.
announceEip6963(createTestKeyProvider())
