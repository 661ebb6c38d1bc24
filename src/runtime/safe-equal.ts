// The project's one constant-time comparison (tokens, signatures, secrets), below every part that
// checks one: the webhook listener, the chat platforms, the dashboard, the metrics endpoint.
import type { Buffer } from 'node:buffer';
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time equality. Both sides are hashed first, so inputs of different lengths neither throw
 * (as `timingSafeEqual` would) nor reveal their length through an early return.
 */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const digest = (value: string | Buffer) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}
