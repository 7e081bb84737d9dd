/** Every route's schemas, one file per topic so a bundle keeps only the topics it imports. */
export * from './balances'
export * from './callbacks'
export * from './config'
export * from './relay'
export * from './sessions'
export * from './transactions'
