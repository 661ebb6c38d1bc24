// The one rule for names that come from outside and become folder names or URL paths (DECISIONS §
// Dashboard sign-in and roles), as text and patterns. On the ground floor so that the config
// schema can use it; the checks every caller makes are in src/security/names.ts.

/** The rule as DECISIONS writes it; every refusal quotes it. */
export const NAME_RULE = '^[a-z0-9][a-z0-9._-]{0,63}$';
export const NAME_WORDS = 'lowercase letters, digits, ., _ and -, starting with a letter or digit, at most 64';

/**
 * The rule and the ban on `..` as one expression, for schemas that take a pattern (the config's
 * route names and its JSON Schema). Not for tool arguments: providers' schema checkers refuse a
 * lookahead, so tools take a string and call checkName.
 */
export const NAME_PATTERN = /^(?!.*\.\.)[a-z0-9][a-z0-9._-]{0,63}$/;
