// Troubleshooting hints from the spec's error table, attached to the errors they explain.
import { isNotFoundDeployment } from '../wire/errors.js';
import type { ModelError } from '../wire/types.js';
import type { EndpointPlan } from '../endpoint.js';

export const IDENTITY_401_HINT =
  'the identity token was rejected: the login may have expired, the inference role may not have ' +
  'propagated yet (about 5 minutes after assignment), CLOUD_CLIENT_ID may not be the user-assigned ' +
  "identity's client id, or model.identity.scope is stale (delete it to use the default scope)";

export const DOUBLED_VERSION_HINT =
  'an old base URL (with a query string or a trailing /v1) makes a malformed messages URL: ' +
  'remove the query string and /v1 from model.base_url';

export function deploymentHint(plan: Pick<EndpointPlan, 'model' | 'baseUrl'>): string {
  return (
    `no deployment named "${plan.model}" at ${plan.baseUrl}: model.default must be the deployment ` +
    "name as listed in the resource's deployments (names are case-sensitive)"
  );
}

export function hintFor(error: ModelError, plan: EndpointPlan): string | undefined {
  if (error.code === 'auth' && plan.credential.kind === 'identity_token') return IDENTITY_401_HINT;
  if (error.code === 'not_found' && isNotFoundDeployment(error)) return deploymentHint(plan);
  if (error.code === 'not_found' && plan.apiMode === 'anthropic_messages' && plan.legacyBaseUrl) {
    return DOUBLED_VERSION_HINT;
  }
  return undefined;
}

export function withHint(error: ModelError, plan: EndpointPlan): ModelError {
  const hint = hintFor(error, plan);
  return hint ? { ...error, hint, message: `${error.message} (hint: ${hint})` } : error;
}
