// The pieces every demo that posts through gh shares: the fake gh installed as `gh` in a folder of
// the demo's own, and a clean environment for the gateway (no provider keys or tokens from the
// user's shell reach it; only the fakes' addresses and the demo's home).
import { chmod, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Writes `<binDir>/gh`, a wrapper that runs the fake gh with this Node; returns its path. */
export async function installFakeGh(binDir: string, fakeGh: string): Promise<string> {
  const gh = join(binDir, 'gh');
  // `exec`: a kill of the wrapper's pid reaches the fake itself.
  await writeFile(gh, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(fakeGh)} "$@"\n`);
  await chmod(gh, 0o755);
  return gh;
}

/** HOME, LANG and TMPDIR from this shell, `binDir` first on PATH, and the given variables. */
export function cleanDemoEnv(binDir: string, variables: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['HOME', 'LANG', 'TMPDIR']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`, ...variables };
}
