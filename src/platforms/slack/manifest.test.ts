import { describe, expect, it } from 'vitest';
import { slackManifest } from './manifest.js';

describe('slackManifest', () => {
  it('Socket Mode on, the two events, the three scopes, a writable Messages tab', () => {
    expect(slackManifest()).toMatchObject({
      features: { app_home: { messages_tab_enabled: true, messages_tab_read_only_enabled: false }, bot_user: { display_name: 'Iris' } },
      oauth_config: { scopes: { bot: ['app_mentions:read', 'chat:write', 'im:history'] } },
      settings: { event_subscriptions: { bot_events: ['app_mention', 'message.im'] }, socket_mode_enabled: true },
    });
  });
});
