// Server-Sent Events frames for the chat stream. Data is one line of JSON (JSON.stringify never
// writes a raw line break), so a frame is always `event:` + `data:` + a blank line, and a model's
// text can never forge a frame of its own. Pure.

/** A comment line: keeps proxies and the browser from timing out an idle stream; readers ignore it. */
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/** How often an idle stream gets a heartbeat. */
export const HEARTBEAT_MS = 15_000;

export function encodeSseFrame(event: string, data: unknown): string {
  if (!/^[a-z_]+$/.test(event)) throw new Error(`not an event name: ${JSON.stringify(event)}`);
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
