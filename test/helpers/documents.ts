// Typed reading for tests, so the type-aware lint rules (no `any`) hold in tests too.
import { expect } from 'vitest';
import { parse } from 'yaml';

/**
 * A JSON or YAML document as a test reads it: any key may be followed, and whatever is found is
 * compared with toEqual/toBe. Not `any`: it cannot be called or passed where a real type is due.
 */
export type Doc = { readonly [key: string]: Doc };

export function parseJson(text: string): Doc {
  return JSON.parse(text) as Doc;
}

export function parseYaml(text: string): Doc {
  return parse(text) as Doc;
}

// vitest's asymmetric matchers are typed `any`; these say what they stand for.
export const stringContaining = (text: string): string => expect.stringContaining(text) as string;
export const stringMatching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;
export const anyNumber = (): number => expect.any(Number) as number;
export const anyString = (): string => expect.any(String) as string;
export const closeTo = (value: number, digits: number): number => expect.closeTo(value, digits) as number;
