// Packages the docs import that this repository does not install: the optional peer
// `@metamask/sdk` and `@metamask/connect-evm` (the custom-connector example). The doc blocks are
// type-checked with these as untyped modules.
declare module '@metamask/sdk'
declare module '@metamask/connect-evm'
