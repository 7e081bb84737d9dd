#!/usr/bin/env node
// `scope-connect-server`. Installed from the package it runs the built CLI (dist/cli.js) with Node
// alone. In a checkout of the repository (src/ beside bin/, the repository's tsconfig above) it runs
// the TypeScript sources through tsx instead, so no build is needed there; the package ships no src/.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const sources = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const tsconfig = fileURLToPath(new URL('../../tsconfig.json', import.meta.url))
if (existsSync(sources) && existsSync(tsconfig)) {
  const { register } = await import('tsx/esm/api')
  register({ tsconfig })
  await import('../src/cli.ts')
} else {
  await import('../dist/cli.js')
}
