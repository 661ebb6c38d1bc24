// A tool from one zod schema: the JSON Schema the model sees and the check its arguments pass are
// derived from the same object, so they cannot drift apart. Arguments come from the model, so they
// are data entering at a boundary: bad ones, and anything the tool throws, come back as a result
// the model can read and correct, never as a throw that ends the run.
import * as z from 'zod/mini';
import { errnoMessage } from '../../config/result.js';
import type { Tool, ToolContext, ToolResult } from './types.js';

type ArgsSchema = z.ZodMiniObject;

export type ToolSpec<S extends ArgsSchema> = {
  readonly name: string;
  readonly description: string;
  readonly args: S;
  readonly readOnly: boolean;
  run(args: z.output<S>, context: ToolContext): Promise<ToolResult>;
};

export function defineTool<S extends ArgsSchema>(spec: ToolSpec<S>): Tool {
  // `$schema` is noise to a model, and a few providers reject unknown top-level keywords.
  const parameters: Record<string, unknown> = { ...z.toJSONSchema(spec.args, { io: 'input' }) };
  delete parameters.$schema;
  return Object.freeze({
    definition: Object.freeze({ name: spec.name, description: spec.description, parameters }),
    readOnly: spec.readOnly,
    async run(raw: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ToolResult> {
      const parsed = spec.args.safeParse(raw);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => describeIssue(issue, raw));
        return { ok: false, content: `invalid arguments for ${spec.name}: ${problems.join('; ')}` };
      }
      try {
        return await spec.run(parsed.data, context);
      } catch (err) {
        return { ok: false, content: `${spec.name} failed: ${errnoMessage(err)}` };
      }
    },
  });
}

type Issue = z.core.$ZodIssue;

/** zod/mini ships no message catalogue ("Invalid input"), so the model gets one written here. */
function describeIssue(issue: Issue, raw: Readonly<Record<string, unknown>>): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
  switch (issue.code) {
    case 'invalid_type': {
      const given = issue.path.length === 1 ? raw[String(issue.path[0])] : raw;
      if (given === undefined) return `${where} is required`;
      return `${where} must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`;
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${where} must not be empty`;
      return `${where} must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}${issue.origin === 'string' ? ' characters long' : ''}`;
    case 'too_big':
      return `${where} must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}${issue.origin === 'string' ? ' characters long' : ''}`;
    case 'unrecognized_keys':
      return `unknown argument${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern ? `${where} must match ${issue.pattern}` : `${where} is not a valid ${issue.format}`;
    default:
      return `${where} is not valid`;
  }
}
