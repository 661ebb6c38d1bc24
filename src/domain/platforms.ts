// The chat platforms and SMS by name: config keys (`platforms.<name>`), webhook `deliver` values,
// session sources and the `platform` metrics label. Each has its adapter under src/platforms/.

export const CHAT_PLATFORMS = ['telegram', 'discord', 'slack', 'signal', 'sms'] as const;
export type PlatformName = (typeof CHAT_PLATFORMS)[number];

export function isPlatformName(value: string): value is PlatformName {
  return (CHAT_PLATFORMS as readonly string[]).includes(value);
}

/** The longest message each platform takes; longer answers are split (DECISIONS § Chat platforms). */
export const MESSAGE_LIMITS: Readonly<Record<PlatformName, number>> = Object.freeze({
  telegram: 4096,
  discord: 2000,
  slack: 4000,
  signal: 8000,
  sms: 1600,
});

/** One message received in a chat. Ids are the platform's own, as strings. */
export type InboundMessage = {
  readonly platform: PlatformName;
  /** Telegram chat id, Signal `group.<base64 id>` or the sender's number, SMS the sender's number. */
  readonly chatId: string;
  /** Telegram topic, Slack/Discord thread; null where there is none. */
  readonly threadId: string | null;
  /** Unique within the chat; with platform and chatId the dedup key. */
  readonly messageId: string;
  readonly userId: string;
  /** A display name when the platform gives one. */
  readonly userName: string | null;
  readonly text: string;
  /** A direct (one-to-one) conversation, as opposed to a group. Pairing codes go only to these. */
  readonly isDirect: boolean;
  /** Epoch milliseconds. */
  readonly receivedAt: number;
};
