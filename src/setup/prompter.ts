// The questions setup and the model picker ask, behind one small interface: answered by a person
// at a terminal (@clack/prompts, see clack-prompter.ts), or by nobody (scripts, CI), in which case
// a question that has no flag to answer it is an error naming the flag.

export type Choice = { readonly value: string; readonly label: string; readonly hint?: string };

export interface Prompter {
  readonly interactive: boolean;
  select(question: { message: string; choices: readonly Choice[]; initial?: string; flag: string }): Promise<string>;
  /** A searchable list; `allowOther` lets the user type a value that is not listed. */
  pick(question: { message: string; choices: readonly Choice[]; initial?: string; flag: string; allowOther?: boolean }): Promise<string>;
  text(question: { message: string; initial?: string; placeholder?: string; flag: string; validate?: (value: string) => string | undefined; optional?: boolean }): Promise<string>;
  secret(question: { message: string; flag: string }): Promise<string>;
  confirm(question: { message: string; initial: boolean; flag: string }): Promise<boolean>;
  note(text: string): void;
  /** The wizard's opening and closing frame (a terminal only). */
  open?(title: string): void;
  close?(text: string): void;
}

export class MissingAnswer extends Error {
  constructor(readonly flag: string, question: string) {
    super(`${question}: pass ${flag} (no terminal to ask on)`);
  }
}

export class SetupCancelled extends Error {
  constructor() {
    super('setup cancelled; nothing was written');
  }
}

/** For runs without a terminal: every question needs its flag. */
export function unattendedPrompter(print: (line: string) => void): Prompter {
  const missing = (q: { message: string; flag: string }): never => {
    throw new MissingAnswer(q.flag, q.message);
  };
  return {
    interactive: false,
    select: async (q) => missing(q),
    pick: async (q) => missing(q),
    text: async (q) => (q.optional ? '' : missing(q)),
    secret: async (q) => missing(q),
    confirm: async (q) => missing(q),
    note: print,
  };
}
