// The OAuth 2.0 device authorization grant (RFC 8628) for `iris auth login`: ask for a device
// code, show the user where to approve it, then poll the token endpoint at the server's pace
// until the sign-in is approved, denied or the code expires. The clock, the sleep and fetch are
// injected so that tests run it at full speed; each step's meaning is decided by nextPollStep.
import { DEFAULT_INTERVAL_S, nextPollStep, type DeviceFlowFailure, type TokenAnswer } from './decide.js';
import { requestDeviceAuthorization, requestToken, type DeviceAuthorization, type FetchLike } from './oauth-http.js';
import type { AuthServer } from './server.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type DeviceFlowDeps = {
  readonly fetch: FetchLike;
  readonly now: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly signal?: AbortSignal;
};

export type DeviceFlowResult =
  | { readonly ok: true; readonly answer: TokenAnswer }
  | { readonly ok: false; readonly code: DeviceFlowFailure | 'start_failed' | 'cancelled'; readonly message: string };

export async function runDeviceFlow(
  server: AuthServer,
  clientId: string,
  onCode: (device: DeviceAuthorization) => void,
  deps: DeviceFlowDeps,
): Promise<DeviceFlowResult> {
  const started = await requestDeviceAuthorization(deps.fetch, server.deviceAuthorizationUrl, { client_id: clientId, scope: server.scope }, deps.signal);
  if (deps.signal?.aborted) return { ok: false, code: 'cancelled', message: 'the sign-in was cancelled' };
  if (!started.ok) return { ok: false, code: 'start_failed', message: started.message };
  const { device } = started;
  onCode(device);
  const deadline = deps.now() + device.expires_in * 1000;
  let intervalS = device.interval ?? DEFAULT_INTERVAL_S;
  for (;;) {
    await deps.sleep(intervalS * 1000, deps.signal);
    if (deps.signal?.aborted) return { ok: false, code: 'cancelled', message: 'the sign-in was cancelled' };
    const answer = await requestToken(
      deps.fetch,
      server.tokenUrl,
      { grant_type: DEVICE_CODE_GRANT, device_code: device.device_code, client_id: clientId },
      deps.signal,
    );
    if (deps.signal?.aborted) return { ok: false, code: 'cancelled', message: 'the sign-in was cancelled' };
    // The time left is measured after the answer, and before the next sleep would start.
    const step = nextPollStep(answer, intervalS, deadline - deps.now() - intervalS * 1000);
    if (step.kind === 'done') return { ok: true, answer: step.answer };
    if (step.kind === 'fail') return { ok: false, code: step.code, message: step.message };
    intervalS = step.intervalS;
  }
}
