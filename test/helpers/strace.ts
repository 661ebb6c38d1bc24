// Reading `strace -f -y -o FILE` output: each system call with the thread that made it, its
// arguments as strace printed them, and where in the trace it began and where it returned. A call
// that another thread's call interrupted is printed in two parts (`<unfinished ...>`, then
// `<... name resumed>`); the two are joined here, so that "this returned before that began" can be
// asked of any two calls.

export type TracedCall = {
  readonly tid: number;
  readonly name: string;
  /** The arguments as printed (with -y, file descriptors carry their path: `20</x/state.db-wal>`). */
  readonly args: string;
  /** Line index where the call began, and where it returned. */
  readonly began: number;
  readonly returned: number;
};

const WHOLE = /^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+|\?)/;
const UNFINISHED = /^(\d+)\s+(\w+)\((.*)\s<unfinished \.\.\.>$/;
const RESUMED = /^(\d+)\s+<\.\.\. (\w+) resumed>/;

export function parseStrace(text: string): TracedCall[] {
  const calls: TracedCall[] = [];
  const open = new Map<number, { name: string; args: string; began: number }>();
  text.split('\n').forEach((line, index) => {
    const whole = WHOLE.exec(line);
    if (whole) {
      calls.push({ tid: Number(whole[1]), name: whole[2]!, args: whole[3]!, began: index, returned: index });
      return;
    }
    const unfinished = UNFINISHED.exec(line);
    if (unfinished) {
      open.set(Number(unfinished[1]), { name: unfinished[2]!, args: unfinished[3]!, began: index });
      return;
    }
    const resumed = RESUMED.exec(line);
    if (resumed) {
      const tid = Number(resumed[1]);
      const start = open.get(tid);
      if (start && start.name === resumed[2]) {
        calls.push({ tid, name: start.name, args: start.args, began: start.began, returned: index });
        open.delete(tid);
      }
    }
  });
  return calls.sort((a, b) => a.began - b.began);
}
