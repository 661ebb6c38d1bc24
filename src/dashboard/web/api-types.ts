// The shapes of the dashboard API's answers (docs/dashboard.md), checked where they enter the page:
// a server that answers something else shows an error naming the field, not a blank page.
import * as z from 'zod/mini';
import type { AuxTarget } from '../../domain/assignment.js';

const Capability = z.string();

const Price = z.nullable(
  z.object({ input: z.number(), output: z.number(), cached_input: z.optional(z.number()) }),
);

const ModelDetail = z.object({
  id: z.string(),
  context_length: z.nullable(z.optional(z.number())),
  capabilities: z.optional(z.array(Capability)),
  price: z.optional(Price),
});

const Provider = z.object({
  slug: z.string(),
  name: z.string(),
  models: z.array(z.string()),
  model_details: z.optional(z.array(ModelDetail)),
  free_text: z.optional(z.boolean()),
  models_error: z.optional(z.string()),
});

export const ModelOptionsSchema = z.object({
  provider: z.string(),
  model: z.string(),
  providers: z.array(Provider),
  unauthenticated: z.optional(
    z.array(z.object({ slug: z.string(), name: z.string(), key_env: z.optional(z.nullable(z.string())) })),
  ),
});

const Assignment = z.object({ provider: z.string(), model: z.string() });

const AuxTask = z.object({
  task: z.string(),
  name: z.optional(z.string()),
  provider: z.string(),
  model: z.string(),
  base_url: z.optional(z.string()),
});

export const AuxiliarySchema = z.object({ main: Assignment, tasks: z.array(AuxTask) });

const UsageModel = z.object({
  provider: z.string(),
  model: z.string(),
  calls: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_tokens: z.optional(z.number()),
  cost_usd: z.nullable(z.number()),
  unpriced_calls: z.optional(z.number()),
  tasks: z.optional(z.array(z.string())),
  context_length: z.optional(z.nullable(z.number())),
  capabilities: z.optional(z.array(Capability)),
});

export const UsageSchema = z.object({ since: z.nullable(z.optional(z.string())), models: z.array(UsageModel) });

const StaleAux = z.object({ task: z.string(), provider: z.string(), model: z.string() });

export const SetAnswerSchema = z.object({
  ok: z.literal(true),
  scope: z.string(),
  provider: z.optional(z.string()),
  model: z.optional(z.string()),
  tasks: z.optional(z.array(z.string())),
  reset: z.optional(z.boolean()),
  stale_aux: z.optional(z.array(StaleAux)),
});

export type ModelOptions = z.infer<typeof ModelOptionsSchema>;
export type ProviderOption = ModelOptions['providers'][number];
export type ModelDetails = z.infer<typeof ModelDetail>;
export type Auxiliary = z.infer<typeof AuxiliarySchema>;
export type AuxTaskAssignment = Auxiliary['tasks'][number];
export type Usage = z.infer<typeof UsageSchema>;
export type UsageModel = z.infer<typeof UsageModel>;
export type SetAnswer = z.infer<typeof SetAnswerSchema>;
export type StaleAuxSlot = z.infer<typeof StaleAux>;

/** A change the page asks for; api.ts writes it as POST /api/model/set's body. */
export type SetRequest =
  | { readonly scope: 'main'; readonly provider: string; readonly model: string }
  | { readonly scope: 'auxiliary'; readonly target: AuxTarget; readonly provider: string; readonly model: string };

export const ProfilesSchema = z.object({
  profiles: z.array(z.object({ name: z.string(), active: z.boolean(), description: z.string() })),
});
export const DescribeAnswerSchema = z.object({ ok: z.literal(true), profile: z.string(), description: z.string() });
export type Profiles = z.infer<typeof ProfilesSchema>;
export type DescribeAnswer = z.infer<typeof DescribeAnswerSchema>;
