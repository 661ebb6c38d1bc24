// Spellings of an address on this machine that a URL may carry, each with the sentence the fetch
// guard refuses it with. A broken guard letting one through would still only reach loopback, so
// tests may aim them at a local server and then assert that it heard nothing.
export const LOOPBACK_FORMS: ReadonlyArray<readonly [host: string, refusal: string]> = [
  ['127.0.0.1', 'refused: 127.0.0.1 is loopback'],
  ['127.1', 'refused: 127.0.0.1 is loopback'],
  ['0x7f000001', 'refused: 127.0.0.1 is loopback'],
  ['[::1]', 'refused: ::1 is loopback'],
  ['[::ffff:127.0.0.1]', 'refused: ::ffff:7f00:1 is loopback (IPv4-mapped 127.0.0.1)'],
  ['0.0.0.0', 'refused: 0.0.0.0 is unspecified (this network)'],
];
