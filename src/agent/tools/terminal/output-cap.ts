// Keeping a command's output to a size the model can read: the head (what the command set out to
// do) and the tail (how it ended, where errors usually are), with the size of the cut between.
// Bounded while streaming, so a command that prints gigabytes costs no more memory than one that
// prints the cap.

export type OutputCap = {
  push(chunk: Buffer): void;
  /** The kept text, with `[… N bytes cut …]` where the middle was dropped. */
  text(): string;
  readonly totalBytes: number;
};

export function createOutputCap(limitBytes: number): OutputCap {
  const headLimit = Math.ceil(limitBytes / 2);
  const tailLimit = limitBytes - headLimit;
  const head: Buffer[] = [];
  const tail: Buffer[] = [];
  let headBytes = 0;
  let tailBytes = 0;
  let totalBytes = 0;
  return {
    push(chunk) {
      totalBytes += chunk.length;
      let rest = chunk;
      if (headBytes < headLimit) {
        const taken = rest.subarray(0, headLimit - headBytes);
        head.push(taken);
        headBytes += taken.length;
        rest = rest.subarray(taken.length);
      }
      if (rest.length === 0) return;
      tail.push(rest);
      tailBytes += rest.length;
      // Drop whole chunks that lie entirely before the last `tailLimit` bytes.
      while (tail.length > 1 && tailBytes - (tail[0] as Buffer).length >= tailLimit) {
        tailBytes -= (tail.shift() as Buffer).length;
      }
    },
    text() {
      const headBuf = Buffer.concat(head);
      const tailAll = Buffer.concat(tail);
      if (headBuf.length + tailAll.length === totalBytes && tailAll.length <= tailLimit) {
        return Buffer.concat([headBuf, tailAll]).toString('utf8');
      }
      const kept = trimUtf8Start(tailAll.subarray(Math.max(0, tailAll.length - tailLimit)));
      const start = trimUtf8End(headBuf);
      const cut = totalBytes - start.length - kept.length;
      return `${start.toString('utf8')}\n[… ${cut} bytes cut …]\n${kept.toString('utf8')}`;
    },
    get totalBytes() {
      return totalBytes;
    },
  };
}

/** Drops continuation bytes at the start, so the cut never shows a broken character. */
function trimUtf8Start(buf: Buffer): Buffer {
  let i = 0;
  while (i < buf.length && i < 3 && ((buf[i] as number) & 0xc0) === 0x80) i++;
  return buf.subarray(i);
}

/** Drops a multi-byte character whose last bytes were cut off. */
function trimUtf8End(buf: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const byte = buf[buf.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? buf.subarray(0, buf.length - back) : buf;
  }
  return buf;
}
