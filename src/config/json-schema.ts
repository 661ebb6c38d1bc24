// config.yaml as a JSON Schema, for editors (`iris config schema`). zod writes it from the very
// schema the validator uses, so the two cannot drift apart. Only that command imports this file:
// zod's JSON Schema generator stays off the start-up path of every other command.
import * as z from 'zod/mini';
import { configSchema } from './schema.js';

export type JsonSchema = z.core.JSONSchema.BaseSchema;

/**
 * The schema of what a user may write, not of what the validator returns: `io: 'input'` leaves a
 * key with a default out of `required`, so a sparse config.yaml (or an empty one) validates.
 * Whatever JSON Schema cannot express (a transform, a custom refinement) becomes "any value"
 * instead of an error: the validator still checks it, and an editor must never reject a value
 * that Iris accepts.
 */
export function toInputJsonSchema(schema: z.ZodMiniType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
}

export function buildConfigJsonSchema(): JsonSchema {
  const { $schema, ...rest } = toInputJsonSchema(configSchema);
  return {
    $schema,
    title: 'Iris config.yaml',
    description: 'Every key and its default: docs/configuration.md. Unknown keys are kept and warned about, never rejected.',
    ...rest,
  };
}
