// Reads the dashboard chat's event stream (GET /api/chat/sessions/:id/events) the way the page
// does, with fetch() and the token header, keeping the raw text and the parsed frames.
export type ChatFrame = { readonly event: string; readonly data: Record<string, unknown> };

export type ChatStreamReader = {
  readonly frames: ChatFrame[];
  /** Everything received, byte for byte (heartbeats included). */
  raw(): string;
  /** Resolves with the first frame (from the start) that matches, waiting for it if needed. */
  until(match: (frame: ChatFrame) => boolean, timeoutMs?: number): Promise<ChatFrame>;
  close(): void;
};

export async function openChatStream(baseUrl: string, token: string, sessionId: string): Promise<ChatStreamReader> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/chat/sessions/${sessionId}/events`, {
    headers: { 'x-service-session-token': token },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) throw new Error(`the stream answered ${response.status}: ${await response.text()}`);
  const frames: ChatFrame[] = [];
  let raw = '';
  let pending = '';
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        raw += text;
        pending += text;
        let cut = pending.indexOf('\n\n');
        while (cut >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) frames.push({ event, data: JSON.parse(data) as Record<string, unknown> });
          cut = pending.indexOf('\n\n');
        }
        for (const wake of [...waiters]) wake();
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    frames,
    raw: () => raw,
    until(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => controller.abort(),
  };
}
