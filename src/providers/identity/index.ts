// Keyless identity tokens for `cloud-hosted`: the public face of the credential chain.
export { createIdentityTokenProvider, DEFAULT_IDENTITY_TIMEOUT_MS, TOKEN_REFRESH_MARGIN_MS } from './provider.js';
export type { CachingIdentityTokenProvider, IdentityProviderOptions } from './provider.js';
export { ENV_NAMES, resolveIdentitySettings } from './settings.js';
export type { IdentitySettings, ManagedIdentityTarget } from './settings.js';
export * from './types.js';
