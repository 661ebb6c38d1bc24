// The Webhooks API's request bodies and refusals, pure: a JSON body in, the library's input (or one
// sentence saying what to send) out, and each library refusal's HTTP status. The body never carries
// a secret: a new subscription gets a random one, shown once in the answer.
import * as z from 'zod/mini';
import type { RouteFailureCode, SubscribeInput, TestPayload } from '../webhook/manage-routes.js';

/** What each refusal answers: the caller's mistake (400), no such thing (404), a state that forbids it (409). */
export const STATUS_BY_FAILURE: Readonly<Record<RouteFailureCode, number>> = {
  bad_input: 400,
  invalid_value: 400,
  invalid_key: 400,
  not_scalar: 400,
  not_a_mapping: 400,
  unknown_route: 404,
  static_route: 409,
  gateway_not_running: 409,
  // webhook_subscriptions.json or config.yaml is unreadable: fixing the file is the way on.
  parse_error: 409,
  gateway_unreachable: 502,
  lock_timeout: 503,
  home_unusable: 500,
  io_error: 500,
};

const MAX_LIST = 64;
const MAX_ITEM_CHARS = 200;
// An event name travels as a header (x-forge-event) and into logs: plain word characters only.
const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;
const EXTRA_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const names = z.optional(z.array(z.string().check(z.maxLength(MAX_ITEM_CHARS))).check(z.maxLength(MAX_LIST)));

const SubscribeSchema = z.strictObject({
  name: z.string(),
  events: names,
  prompt: z.optional(z.string().check(z.maxLength(20_000))),
  deliver: z.optional(z.string()),
  deliver_extra: z.optional(z.record(z.string().check(z.regex(EXTRA_KEY)), z.union([z.string().check(z.maxLength(1_000)), z.number()]))),
  skills: names,
  toolsets: names,
  sandbox: z.optional(z.string()),
  sandbox_network: z.optional(z.boolean()),
  sandbox_env: names,
});

const SUBSCRIBE_SHAPE =
  'send {"name": "<route>", "events"?: ["pull_request", …], "prompt"?: "<template>", "deliver"?: "log", "deliver_extra"?: {"key": "value"}, "skills"?: […], "toolsets"?: […], "sandbox"?: "bubblewrap" | "off", "sandbox_network"?: true, "sandbox_env"?: ["NAME", …]} (no secret: a new one is made and shown once)';

/** zod/mini ships no message catalogue (its text is "Invalid input"), so the sentence is written here. */
export function issueText(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the body';
  switch (issue.code) {
    case 'invalid_type':
      return `${where} must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => JSON.stringify(key.slice(0, 40))).join(', ')}`;
    case 'too_big':
      return `${where} is too long (at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : ' items'})`;
    case 'invalid_format':
      return `${where} must match ${issue.format === 'regex' && issue.pattern ? issue.pattern : issue.format}`;
    case 'invalid_key': {
      // The path ends with the key itself.
      const key = String(issue.path.at(-1) ?? '');
      return `${issue.path.slice(0, -1).map(String).join('.') || 'the body'} key ${JSON.stringify(key.slice(0, 40))} must be a word (letters, digits and _, at most 64)`;
    }
    default:
      return `${where} is not valid`;
  }
}

/** Trimmed, without blanks: what `--events a, b` gives on the command line. */
const cleanList = (items: readonly string[] | undefined) => (items ?? []).map((item) => item.trim()).filter(Boolean);

/** A subscribe body as the library's input, or why it is refused (400). */
export function parseSubscribeBody(data: unknown): { readonly ok: true; readonly input: SubscribeInput } | { readonly ok: false; readonly error: string } {
  const parsed = SubscribeSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${issue === undefined ? '' : `${issueText(issue)}; `}${SUBSCRIBE_SHAPE}` };
  }
  const body = parsed.data;
  const events = cleanList(body.events);
  const badEvent = events.find((event) => !EVENT_NAME.test(event));
  if (badEvent !== undefined) return { ok: false, error: `event ${JSON.stringify(badEvent.slice(0, 100))} must be letters, digits, _ . : or - (at most 100)` };
  return {
    ok: true,
    input: {
      name: body.name,
      events,
      // An empty prompt is no prompt: the route then uses the default one for its event.
      ...(body.prompt !== undefined && body.prompt.trim() !== '' ? { prompt: body.prompt } : {}),
      ...(body.deliver !== undefined ? { deliver: body.deliver } : {}),
      deliverExtra: { ...(body.deliver_extra ?? {}) },
      skills: cleanList(body.skills),
      toolsets: cleanList(body.toolsets),
      ...(body.sandbox !== undefined ? { sandbox: body.sandbox } : {}),
      ...(body.sandbox_network !== undefined ? { sandboxNetwork: body.sandbox_network } : {}),
      ...(body.sandbox_env !== undefined ? { sandboxEnv: cleanList(body.sandbox_env) } : {}),
    },
  };
}

const TestSchema = z.strictObject({
  event: z.optional(z.string()),
  payload: z.optional(z.unknown()),
});

export type TestRequest = { readonly event?: string; readonly payload?: TestPayload };

/** A test body (`{}` sends a sample of the route's first event) as the library's options, or why it is refused (400). */
export function parseTestBody(data: unknown): { readonly ok: true; readonly request: TestRequest } | { readonly ok: false; readonly error: string } {
  const parsed = TestSchema.safeParse(data);
  if (!parsed.success) return { ok: false, error: 'send {"event"?: "<event name>", "payload"?: {…}} ({} sends a sample of the route\'s first event)' };
  const { event, payload } = parsed.data;
  if (event !== undefined && !EVENT_NAME.test(event)) return { ok: false, error: `event ${JSON.stringify(event.slice(0, 100))} must be letters, digits, _ . : or - (at most 100)` };
  return { ok: true, request: { ...(event !== undefined ? { event } : {}), ...(payload !== undefined ? { payload: { value: payload } } : {}) } };
}
