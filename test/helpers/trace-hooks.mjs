import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (process.env.IRIS_TRACE_FILE) appendFileSync(process.env.IRIS_TRACE_FILE, `${result.url}\n`);
  return result;
}
