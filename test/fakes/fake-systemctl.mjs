#!/usr/bin/env node
// A stand-in for systemctl, for `iris gateway status` in tests (point IRIS_SYSTEMCTL_BIN at this
// file). It answers only what Iris runs:
//
//   systemctl [--user] show <unit> --property=ActiveState,SubState,UnitFileState,MainPID
//
// printing the properties asked for, one `Name=value` line each, as systemd 252+ does. The values
// come from FAKE_SYSTEMCTL_STATE, `ActiveState/SubState/UnitFileState/MainPID` (default
// `active/running/enabled/4242`). When FAKE_SYSTEMCTL_RECORD names a file, the argv is appended to
// it as one JSON line, so a test can check `--user` was passed. FAKE_SYSTEMCTL_FAIL=<text> prints
// <text> on stderr and exits 1, as systemctl does without a bus ("Failed to connect to bus: …").
// Anything else is a usage error: exit 1 with a message, so a test never passes by accident.
import { appendFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (process.env.FAKE_SYSTEMCTL_RECORD) appendFileSync(process.env.FAKE_SYSTEMCTL_RECORD, `${JSON.stringify(argv)}\n`);
if (process.env.FAKE_SYSTEMCTL_FAIL) {
  process.stderr.write(`${process.env.FAKE_SYSTEMCTL_FAIL}\n`);
  process.exit(1);
}

const args = argv[0] === '--user' ? argv.slice(1) : argv;
const property = args.find((arg) => arg.startsWith('--property='));
if (args[0] !== 'show' || !args[1] || !property || args.length !== 3) {
  process.stderr.write(`fake-systemctl: unsupported command: ${argv.join(' ')}\n`);
  process.exit(1);
}

const [active, sub, fileState, pid] = (process.env.FAKE_SYSTEMCTL_STATE ?? 'active/running/enabled/4242').split('/');
const values = { ActiveState: active, SubState: sub, UnitFileState: fileState, MainPID: pid };
const names = property.slice('--property='.length).split(',');
process.stdout.write(names.map((name) => `${name}=${values[name] ?? ''}\n`).join(''));
