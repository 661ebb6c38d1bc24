// The answer to an inbound message once it is stored: an empty TwiML document, which tells Twilio
// "received, send nothing back" (the reply goes out later through the Messages API).
import type { ServerResponse } from 'node:http';

export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
export const TWIML_CONTENT_TYPE = 'text/xml; charset=utf-8';

export function sendEmptyTwiml(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, { 'content-type': TWIML_CONTENT_TYPE, 'content-length': Buffer.byteLength(EMPTY_TWIML) });
  res.end(EMPTY_TWIML);
}
