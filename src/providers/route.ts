// What the routing layer hands the provider layer: one candidate provider/model with the settings
// that decide its endpoint and credential.
import type { ApiMode } from './wire/types.js';

export type ProviderRoute = {
  readonly provider: string;
  readonly model: string;
  readonly baseUrl?: string;
  /** As configured; the effective mode may differ (see endpoint.ts). */
  readonly apiMode?: ApiMode;
  readonly keyEnv?: string;
  /** An aux slot's own `api_key` from config.yaml. */
  readonly apiKey?: string;
  readonly authMode?: 'api_key' | 'identity_token';
  readonly identityScope?: string;
  readonly identityClientId?: string;
  readonly identityTenantId?: string;
};
