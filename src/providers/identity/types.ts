// Keyless identity tokens for `cloud-hosted` (`model.auth_mode: identity_token`).

/** The credential sources, in the order the spec's chain tries them. */
export const TOKEN_SOURCES = [
  'environment',
  'workload_identity',
  'managed_identity',
  'editor',
  'cloud_cli',
  'developer_cli',
  'powershell',
  'broker',
] as const;

export type TokenSource = (typeof TOKEN_SOURCES)[number];

export const DEFAULT_IDENTITY_SCOPE = 'https://ai.azure.com/.default';

export type IdentityToken = {
  readonly token: string;
  readonly expiresOnMs: number;
  /** Which source of the chain produced it (reported by `iris doctor`). */
  readonly source: TokenSource;
};

/**
 * `invalid_config`: the scope, tenant id or authority host cannot be used (bad characters, not https);
 * no source is tried.
 */
export type IdentityErrorCode = 'no_credential' | 'auth_failed' | 'timeout' | 'cancelled' | 'invalid_config';

export type IdentityError = {
  readonly code: IdentityErrorCode;
  readonly message: string;
  /** What each source said, in chain order; never contains a secret. */
  readonly attempts: ReadonlyArray<{ readonly source: TokenSource; readonly message: string }>;
};

export type TokenResult =
  | ({ readonly ok: true } & IdentityToken)
  | { readonly ok: false; readonly error: IdentityError };

export interface IdentityTokenProvider {
  /** A token valid for at least 2 more minutes; concurrent calls share one request. */
  getToken(signal?: AbortSignal): Promise<TokenResult>;
}
