// Stand-in for the gateway's streaming runs while the bare server is measured: reads `count`
// paced model answers from the relay at once, each again as soon as it ends, so the machine carries
// the same streams whichever server takes the webhooks.
//
//   node bench/webhook-ingest/stream-sink.mjs <relay-url> <count> <model>
import { Buffer } from 'node:buffer';
import { request, Agent } from 'node:http';
import process from 'node:process';

const [base, countText, model] = process.argv.slice(2);
const count = Number(countText);
if (!base || !model || !Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: stream-sink.mjs <relay-url> <count> <model>\n');
  process.exit(2);
}
const agent = new Agent({ keepAlive: true, maxSockets: count });
const body = JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'Review this pull request.' }] });
let stopping = false;

function stream() {
  if (stopping) return;
  const req = request(`${base}/v1/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      text += chunk;
      // Decode each complete frame as an SSE client would, keep the unfinished rest.
      let at;
      while ((at = text.indexOf('\n\n')) >= 0) {
        const data = text.slice(0, at).replace(/^data: /, '');
        text = text.slice(at + 2);
        if (data !== '[DONE]') JSON.parse(data);
      }
    });
    res.on('end', stream);
    res.on('error', () => setTimeout(stream, 100));
  });
  req.on('error', () => setTimeout(stream, 100));
  req.end(body);
}

for (let i = 0; i < count; i++) stream();
const stop = () => {
  stopping = true;
  agent.destroy();
  process.exit(0);
};
process.on('SIGTERM', stop);
// The benchmark holds our stdin open: if it dies without stopping us, so do we.
process.stdin.on('end', stop);
process.stdin.resume();
