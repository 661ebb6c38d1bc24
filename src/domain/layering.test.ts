import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The ground floor: domain (the shared vocabulary), runtime (the plumbing every long-lived part
// uses: pauses, the claim pump, wakes, the constant-time comparison), config and store, and net's
// outbound plumbing just above config. Each may import node: modules, packages, itself and the
// floors listed here, nothing else of the project: the layers above (providers, routing, agent,
// cli, …) depend on these, never the other way round.
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'src/domain': [],
  'src/runtime': ['src/domain'],
  'src/config': ['src/domain'],
  'src/store': ['src/domain', 'src/runtime'],
  'src/net': ['src/config', 'src/log', 'src/domain'],
};

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(dir, name).split('\\').join('/'));
}

/** Every specifier a file imports or re-exports, static or dynamic (comments and strings aside). */
function specifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** Where a project import lands (`src/providers/ids.js`), or null for node: modules and packages. */
function projectTarget(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('#')) return null;
  return relative(ROOT, resolve(join(ROOT, dirname(file)), specifier)).split('\\').join('/');
}

// Siblings that must not lean on each other: the chat platforms take their plumbing from the
// floor (src/runtime), never from the webhook gateway's parts.
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  'src/platforms': ['src/gateway', 'src/webhook', 'src/delivery'],
};

describe('what the chat platforms import', () => {
  it.each(Object.entries(FORBIDDEN))('%s imports nothing from %j', (layer, forbidden) => {
    const files = sourceFiles(layer);
    expect(files.length).toBeGreaterThan(0);
    const offences = files.flatMap((file) =>
      specifiers(file)
        .map((specifier) => ({ specifier, target: projectTarget(file, specifier) }))
        .filter(({ target }) => target !== null && forbidden.some((dir) => target.startsWith(`${dir}/`)))
        .map(({ specifier, target }) => `${file} imports '${specifier}' (${target})`),
    );
    expect(offences).toEqual([]);
  });
});

describe('layering of the ground floor', () => {
  const layers = Object.entries(ALLOWED).map(([layer, below]) => [layer, [layer, ...below]] as const);

  it.each(layers)('%s imports nothing of the project outside %j', (layer, allowed) => {
    const files = sourceFiles(layer);
    expect(files.length).toBeGreaterThan(0);
    const offences = files.flatMap((file) =>
      specifiers(file)
        .map((specifier) => ({ specifier, target: projectTarget(file, specifier) }))
        .filter(({ target }) => target !== null && !allowed.some((dir) => target.startsWith(`${dir}/`)))
        .map(({ specifier, target }) => `${file} imports '${specifier}' (${target})`),
    );
    expect(offences).toEqual([]);
  });
});
