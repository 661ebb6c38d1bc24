// A user or chat id from config.yaml as the platform's string. YAML reads a bare 12345 as a number,
// and a bare +15551234567 too, dropping the `+`. Telegram ids are numbers: their decimal string is
// the id. Signal and SMS ids are E.164 numbers (DECISIONS § Chat platforms), never plain digits, so
// a number there gets its `+` back; otherwise `allowed_users: [+15551234567]` would let nobody in
// and `home_channel: +15551234567` would send to "15551234567", which the service refuses. Pure.
import type { PlatformName } from '../domain/platforms.js';

const E164_PLATFORMS: ReadonlySet<PlatformName> = new Set(['signal', 'sms']);

export function configId(platform: PlatformName, value: string | number): string {
  if (typeof value === 'number' && E164_PLATFORMS.has(platform) && Number.isSafeInteger(value) && value > 0) return `+${value}`;
  return String(value);
}
