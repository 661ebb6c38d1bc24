// The shapes of the stream chunks the decoders read, checked before a field is used: a provider
// (or a proxy) that sends `"prompt_tokens": "lots"` or `choices: {}` gets a `malformed_stream`
// error naming the field, never NaN in the usage and the cost. Only the fields the decoders read
// are described; everything else passes (looseObject), so new fields do not break old clients.
import * as z from 'zod/mini';

/** A token count: a whole number, zero or more; absent or null reads as 0. */
export const tokenCount = z.optional(z.nullable(z.int().check(z.nonnegative())));

export const chatChunk = z.looseObject({
  usage: z.optional(
    z.nullable(
      z.looseObject({
        prompt_tokens: tokenCount,
        completion_tokens: tokenCount,
        prompt_tokens_details: z.optional(z.nullable(z.looseObject({ cached_tokens: tokenCount }))),
      }),
    ),
  ),
  choices: z.optional(
    z.nullable(
      z.array(
        z.looseObject({
          delta: z.optional(
            z.nullable(
              z.looseObject({
                content: z.optional(z.nullable(z.string())),
                tool_calls: z.optional(
                  z.nullable(
                    z.array(
                      z.looseObject({
                        index: z.optional(z.int().check(z.nonnegative())),
                        id: z.optional(z.nullable(z.string())),
                        function: z.optional(z.nullable(z.looseObject({ name: z.optional(z.nullable(z.string())), arguments: z.optional(z.nullable(z.string())) }))),
                      }),
                    ),
                  ),
                ),
              }),
            ),
          ),
          finish_reason: z.optional(z.nullable(z.string())),
        }),
      ),
    ),
  ),
});

export const responsesUsage = z.optional(
  z.nullable(
    z.looseObject({
      input_tokens: tokenCount,
      output_tokens: tokenCount,
      input_tokens_details: z.optional(z.nullable(z.looseObject({ cached_tokens: tokenCount }))),
    }),
  ),
);

export const messagesStartUsage = z.optional(
  z.nullable(
    z.looseObject({
      input_tokens: tokenCount,
      output_tokens: tokenCount,
      cache_read_input_tokens: tokenCount,
      cache_creation_input_tokens: tokenCount,
    }),
  ),
);

export const messagesDeltaUsage = z.optional(z.nullable(z.looseObject({ output_tokens: tokenCount })));

export const blockIndex = z.optional(z.int().check(z.nonnegative()));

/** Thrown inside a decoder step when a chunk does not have the shape read; the frame turns it into an error event. */
export class ChunkShapeError extends Error {}

/** The value, checked; `what` names the chunk part in the error (`usage`, `choices[0].delta`). */
export function checked<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  throw new ChunkShapeError(`${what}${path ? `.${path}` : ''}: ${issue?.message ?? 'unexpected shape'}`);
}
