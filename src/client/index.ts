/**
 * `scope-connect/client`: the `Client` facade. In its own entry because it loads connectors by
 * dynamic import: a bundler that meets an `import()` anywhere in an entry's graph (esbuild with code
 * splitting) stops dropping unused modules of that entry, so the pure root entry stays free of it.
 */
export { Client, type ClientOptions } from './client'
