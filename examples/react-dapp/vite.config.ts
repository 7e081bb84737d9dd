import { defineConfig } from 'vite'
import { alias } from '../../vitest.config'

// In this repository `scope-connect` resolves to the library's sources (an app installs the package).
// `paths.html` is the page the Chromium UI tests open: the panel under the generated paths.
export default defineConfig({
  root: import.meta.dirname,
  resolve: { alias },
  build: {
    rollupOptions: { input: ['index.html', 'paths.html'] },
  },
})
