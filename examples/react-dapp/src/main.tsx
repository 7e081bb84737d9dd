import { createRoot } from 'react-dom/client'
import { Client } from 'scope-connect/client'
import { ConnectPanel } from './ConnectPanel'

// The backend of `npm start` unless the page URL says otherwise (?backend=…&appKey=…).
const params = new URLSearchParams(location.search)
const client = new Client({
  baseUrl: params.get('backend') ?? 'http://127.0.0.1:8787',
  appKey: params.get('appKey') ?? 'sample-app-key',
})

createRoot(document.getElementById('root') as HTMLElement).render(<ConnectPanel client={client} />)
