// `node --import ./body-seen.mjs …` with IRIS_TEST_BODY_SEEN=<text>: once a response body this
// process receives over undici (the wire clients' HTTP client) contains <text>, and the process has
// handled that piece, writes "body-seen: <text>" on stderr. How a test knows that a run holds the
// first part of a streamed answer before it interrupts the run, without sleeping and hoping.
// Test tooling only: it listens on undici's public diagnostics channel; nothing in src/ knows of it.
import { Buffer } from 'node:buffer';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import process from 'node:process';
import { setImmediate } from 'node:timers';

const CHANNEL = 'undici:request:bodyChunkReceived';
const wanted = process.env.IRIS_TEST_BODY_SEEN;

if (wanted) {
  const received = new WeakMap();
  const onChunk = (message) => {
    const { request, chunk } = message;
    const text = (received.get(request) ?? '') + Buffer.from(chunk).toString('utf8');
    received.set(request, text);
    if (!text.includes(wanted)) return;
    unsubscribe(CHANNEL, onChunk);
    // undici hands the chunk on through next ticks and promises; setImmediate runs after all of
    // them, so by the time the line is out the client has the text.
    setImmediate(() => process.stderr.write(`body-seen: ${wanted}\n`));
  };
  subscribe(CHANNEL, onChunk);
}
