import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { createDomDriver, exposeClientPaths } from 'scope-connect/testing'
import { ConnectPanel } from './ConnectPanel'
import { checkConnectPanel, clickFor } from './ui-checks'

// The page the Chromium UI tests open: the panel under every generated path, one Client per run
// (the test performs the clicks through Playwright; see test/ui.browser.test.ts).
const container = document.getElementById('root') as HTMLElement

exposeClientPaths({
  // The panel is a desktop page: the universal-link (mobile) flow replays in the kit's own test.
  paths: { flows: ['desktop', 'pairing'] },
  driver: createDomDriver({
    render(client) {
      const root = createRoot(container)
      flushSync(() => root.render(<ConnectPanel client={client} />))
      return { container, unmount: () => root.unmount() }
    },
    act: {
      selectWallet: clickFor,
      connect: clickFor,
      pair: clickFor,
      cancel: clickFor,
      signMessage: clickFor,
      disconnect: clickFor,
      switchChain: clickFor,
      sendTransaction: clickFor,
    },
    expect: (view, ui) => checkConnectPanel(view, ui),
  }),
})
