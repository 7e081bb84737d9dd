#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, with the repository's tsconfig so `scope-connect` and
// `scope-connect/wire` resolve to the library sources.
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) })
await import('../src/cli.ts')
