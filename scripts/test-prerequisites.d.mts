// Types of test-prerequisites.mjs, for its unit test.
export declare const DEFAULT_CHROMIUM: string;
export declare const APT_INSTALL: readonly string[];
export type ChromiumFacts = { path: string; custom: boolean; present: boolean; root: boolean; apt: boolean };
export type ChromiumDecision = { action: 'ok' } | { action: 'install' } | { action: 'stop'; message: string };
export declare function decideChromium(facts: ChromiumFacts): ChromiumDecision;
export declare const STRACE: string;
export declare const APT_INSTALL_STRACE: readonly string[];
export type StraceFacts = { present: boolean; root: boolean; apt: boolean };
export declare function decideStrace(facts: StraceFacts): ChromiumDecision;
export declare const BWRAP: string;
export declare const APT_INSTALL_BUBBLEWRAP: readonly string[];
export declare function decidePackage(facts: StraceFacts, tool: { pkg: string; path: string; needs: string }): ChromiumDecision;
export declare function decideBubblewrap(facts: StraceFacts): ChromiumDecision;
