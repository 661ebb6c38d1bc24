// The interactive half of the Prompter: a person at a terminal, asked with @clack/prompts.
// Ctrl-C (or Escape) at any question ends the wizard with nothing written.
import * as clack from '@clack/prompts';
import { SetupCancelled, type Choice, type Prompter } from './prompter.js';

function answered<T>(value: T): Exclude<T, symbol> {
  if (clack.isCancel(value)) throw new SetupCancelled();
  return value as Exclude<T, symbol>;
}

function options(choices: readonly Choice[]) {
  return choices.map((c) => ({ value: c.value, label: c.label, ...(c.hint ? { hint: c.hint } : {}) }));
}

const matches = (search: string, choice: Choice) => {
  const needle = search.trim().toLowerCase();
  return needle === '' || choice.value.toLowerCase().includes(needle) || choice.label.toLowerCase().includes(needle) || (choice.hint ?? '').toLowerCase().includes(needle);
};

export function clackPrompter(): Prompter {
  return {
    interactive: true,
    async select(q) {
      return answered(await clack.select({ message: q.message, options: options(q.choices), ...(q.initial ? { initialValue: q.initial } : {}) }));
    },
    async pick(q) {
      const listed = q.choices;
      const initial = q.initial;
      if (listed.length === 0) {
        return answered(await clack.text({ message: q.message, ...(initial ? { initialValue: initial } : {}), validate: (v) => (v?.trim() ? undefined : 'type a model id') }));
      }
      return answered(
        await clack.autocomplete<string>({
          message: `${q.message} (type to filter${q.allowOther ? ', or type any id' : ''})`,
          options() {
            const typed = this.userInput.trim();
            const found = listed.filter((c) => matches(typed, c));
            const other = q.allowOther && typed !== '' && !listed.some((c) => c.value === typed) ? [{ value: typed, label: `use "${typed}"` }] : [];
            return [...options(found), ...other];
          },
          filter: () => true,
          ...(initial && listed.some((c) => c.value === initial) ? { initialValue: initial } : {}),
          maxItems: 12,
        }),
      );
    },
    async text(q) {
      const value = answered(
        await clack.text({
          message: q.message,
          ...(q.initial ? { initialValue: q.initial } : {}),
          ...(q.placeholder ? { placeholder: q.placeholder } : {}),
          validate: (v) => {
            const text = (v ?? '').trim();
            if (text === '') return q.optional ? undefined : 'an answer is needed';
            return q.validate?.(text) ? `expected ${q.validate(text)}` : undefined;
          },
        }),
      );
      return (value ?? '').trim();
    },
    async secret(q) {
      return answered(await clack.password({ message: q.message, validate: (v) => ((v ?? '').trim() ? undefined : 'paste the key') }));
    },
    async confirm(q) {
      return answered(await clack.confirm({ message: q.message, initialValue: q.initial }));
    },
    note(text) {
      clack.log.info(text);
    },
    open(title) {
      clack.intro(title);
    },
    close(text) {
      clack.outro(text);
    },
  };
}
