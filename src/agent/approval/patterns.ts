// The built-in list of dangerous command patterns: a match always counts as high risk, whatever
// the approval model thinks. It is a tripwire over the text of the command, not a shell parser:
// it catches the usual forms and the cheap disguises (quotes and backslashes inside words), and
// leaves obfuscated commands to `approval_mode: smart` and to the user. Each entry has a reason a
// user can read in an approval prompt or a denial, and a test that it matches and that a
// near-miss does not.

export type DangerousPattern = {
  readonly id: string;
  readonly pattern: RegExp;
  readonly reason: string;
};

export type CommandAssessment = {
  readonly dangerous: boolean;
  /** One per matched pattern, in table order. */
  readonly reasons: readonly string[];
  /** The matched patterns' ids, for logs and tests. */
  readonly patterns: readonly string[];
};

/** Where a word can start: the start of a line, after a space or a shell operator. */
const WORD = String.raw`(?:^|[\s;&|(){}\x60])`;
/** Where a command can start, after wrappers that run the next word as a command. */
const COMMAND = String.raw`(?:^|[;&|(){}\x60]|\$\()\s*(?:(?:sudo|doas|nohup|exec|time|command|builtin|xargs)(?:\s+-\S+)*\s+)*`;
/** The end of a word. */
const END = String.raw`(?=$|[\s;&|()<>'"])`;

function rx(source: string): RegExp {
  return new RegExp(source, 'm');
}

export const DANGEROUS_PATTERNS: readonly DangerousPattern[] = Object.freeze([
  {
    id: 'recursive-rm',
    pattern: rx(String.raw`${WORD}rm\s+(?:[^\s;&|]+\s+)*?(?:-[A-Za-z]*[rR][A-Za-z]*|--recursive)${END}`),
    reason: 'recursive delete (rm -r)',
  },
  {
    id: 'find-delete',
    pattern: rx(String.raw`${WORD}find\s[^;&|\n]*?\s(?:-delete|-exec(?:dir)?\s+(?:\S*/)?rm)${END}`),
    reason: 'deletes what it finds (find -delete, find -exec rm)',
  },
  {
    id: 'dd-device',
    pattern: rx(String.raw`${WORD}dd\s[^;&|\n]*\bof=/dev/(?!(?:null|zero|stdout|stderr)${END})`),
    reason: 'writes raw data to a device (dd of=/dev/…)',
  },
  {
    id: 'mkfs',
    pattern: rx(String.raw`${WORD}(?:mkfs(?:\.[A-Za-z0-9]+)?|mke2fs|mkswap)${END}`),
    reason: 'creates a file system, erasing the device (mkfs)',
  },
  {
    id: 'device-write',
    pattern: rx(String.raw`(?:>|${WORD}tee\s+(?:-\S+\s+)*)\s*/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk)`),
    reason: 'writes over a disk device (> /dev/sd…)',
  },
  {
    id: 'shred',
    pattern: rx(String.raw`${WORD}(?:shred|wipefs)${END}`),
    reason: 'destroys data beyond recovery (shred)',
  },
  {
    id: 'ssh-dir',
    pattern: rx(String.raw`\.ssh(?![\w.-])`),
    reason: 'reads or changes SSH keys and settings (~/.ssh)',
  },
  {
    id: 'private-key',
    pattern: rx(String.raw`\bid_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?\b(?!\.pub)`),
    reason: 'reads a private SSH key (id_rsa, id_ed25519…)',
  },
  {
    id: 'credential-file',
    pattern: rx(
      String.raw`\.aws/credentials\b|\.config/gcloud\b|\.azure/|\.docker/config\.json\b|\.kube/config\b|\.netrc\b|\.git-credentials\b|\.pgpass\b`,
    ),
    reason: 'reads a credentials file (.aws/credentials, .netrc, .kube/config…)',
  },
  {
    id: 'dotenv',
    pattern: rx(String.raw`(?:^|[\s'"=/<:])\.env(?:rc|\.[\w.-]+)?${END}`),
    reason: 'reads an .env file, where secrets are kept',
  },
  {
    id: 'system-passwords',
    pattern: rx(String.raw`/etc/(?:g?shadow|sudoers|master\.passwd)\b`),
    reason: 'reads system password hashes or sudo rules (/etc/shadow)',
  },
  {
    id: 'env-dump',
    pattern: rx(
      String.raw`${COMMAND}(?:printenv|env|set|export\s+-p|declare\s+-[A-Za-z]*[xp][A-Za-z]*)(?=\s*(?:$|[|;&>)]))|/proc/(?:self|\d+|\*|\$\w*)/environ\b`,
    ),
    reason: 'dumps the environment, which may hold secrets (printenv, env, /proc/…/environ)',
  },
  {
    id: 'secret-variable',
    pattern: rx(
      String.raw`\$\{?(?:[A-Za-z0-9_]*_)?(?:API_KEY|TOKEN|SECRET|PASSWORD)\b|${COMMAND}printenv\s+(?:[A-Za-z0-9_]*_)?(?:API_KEY|TOKEN|SECRET|PASSWORD)\b`,
    ),
    reason: 'reads a secret variable ($…_API_KEY, $…_TOKEN, $…_SECRET)',
  },
  {
    id: 'pipe-to-shell',
    pattern: rx(
      String.raw`\|\s*(?:(?:sudo|doas)\s+(?:-\S+\s+)*)?(?:env\s+)?(?:/usr)?(?:/bin/)?(?:ba|z|k|da|fi|c|tc)?sh${END}`,
    ),
    reason: 'pipes text into a shell (curl … | sh)',
  },
  {
    id: 'remote-code',
    pattern: rx(
      String.raw`(?:ba|z|da)?sh\s+(?:-\S+\s+)*<\(\s*(?:curl|wget)\b|(?:\beval|(?:ba|z|da)?sh\s+-c)\s+["']?\$\(\s*(?:curl|wget)\b`,
    ),
    reason: 'runs code downloaded from the network (bash <(curl …), eval "$(curl …)")',
  },
  {
    id: 'privilege',
    pattern: rx(String.raw`${WORD}(?:sudo|doas|pkexec)${END}|(?:^|[;&|(])\s*su${END}`),
    reason: 'runs as another user (sudo, su, doas)',
  },
  {
    id: 'chmod-777-recursive',
    pattern: rx(
      String.raw`${WORD}chmod(?=[^;&|\n]*\s(?:-[A-Za-z]*R[A-Za-z]*|--recursive)${END})(?=[^;&|\n]*\s(?:0?777|[augo]*\+rwx|a=rwx)${END})`,
    ),
    reason: 'makes files world-writable, recursively (chmod -R 777)',
  },
  {
    id: 'git-force-push',
    pattern: rx(
      String.raw`\bgit(?=[^;&|\n]*\spush${END})(?=[^;&|\n]*\s(?:--force(?:-with-lease|-if-includes)?(?:=\S*)?|-[A-Za-z]*f[A-Za-z]*|\+[^\s;&|]+)${END})`,
    ),
    reason: 'rewrites history on the remote (git push --force)',
  },
  {
    id: 'fork-bomb',
    pattern: rx(String.raw`:\s*\(\s*\)\s*\{|${WORD}([A-Za-z_][\w-]*)\s*\(\s*\)\s*\{(?=[^}\n]*\b\1\s*\|\s*\1\b)(?=[^}\n]*&)`),
    reason: 'a fork bomb (:(){ :|:& };:), which makes the machine unusable',
  },
  {
    id: 'etc-write',
    pattern: rx(
      String.raw`>>?\s*/etc/|${WORD}tee\s+(?:-\S+\s+)*/etc/|${WORD}(?:cp|mv|install|ln|rsync)\s[^;&|\n]*\s/etc(?:/\S*)?\s*(?:$|[;&|)])|${WORD}sed(?=[^;&|\n]*\s-i)(?=[^;&|\n]*\s/etc/)`,
    ),
    reason: 'writes to system configuration (/etc)',
  },
]);

/**
 * The command as written, and with quotes and backslashes taken out (`r''m -rf`, `\rm -rf`,
 * `"sudo"`): a pattern matching either counts. Line continuations join their lines.
 */
function variants(command: string): string[] {
  const joined = command.replace(/\\\r?\n/g, ' ');
  const unquoted = joined.replace(/\\(.)/g, '$1').replace(/['"]/g, '');
  return unquoted === joined ? [joined] : [joined, unquoted];
}

/**
 * Longer commands are not searched: a few patterns take time that grows with the square of a
 * line's length, and a crafted line of repeated words would stall the service. Doubt is high
 * risk, so such a command counts as dangerous; long content belongs in write_file anyway.
 */
export const MAX_ASSESSED_CHARS = 16 * 1024;

export const TOO_LONG = Object.freeze({
  id: 'too-long',
  reason: `too long to check for dangerous patterns (over ${MAX_ASSESSED_CHARS / 1024} KiB); write long content with write_file`,
});

export function assessCommand(command: string): CommandAssessment {
  if (command.length > MAX_ASSESSED_CHARS) {
    return { dangerous: true, reasons: [TOO_LONG.reason], patterns: [TOO_LONG.id] };
  }
  const texts = variants(command);
  const matched = DANGEROUS_PATTERNS.filter(({ pattern }) => texts.some((text) => pattern.test(text)));
  return {
    dangerous: matched.length > 0,
    reasons: matched.map((p) => p.reason),
    patterns: matched.map((p) => p.id),
  };
}
