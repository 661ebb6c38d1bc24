// Types of scripts/dist-swap.mjs, for the tests that import it.
export type Build = { readonly id: string; readonly partial: string; readonly outDir: string; readonly complete: string };
export function inputsHash(root: string, env?: NodeJS.ProcessEnv): string;
export function currentInputsHash(root: string): string | undefined;
export function startBuild(root: string, now?: number, pid?: number): Build;
export function finishBuild(root: string, build: Build, hash: string): void;
export function abandonBuild(build: Build): void;
export function buildsToRemove(names: readonly string[], current: string, previous: string | undefined, isAlive: (pid: number) => boolean): string[];
