// The Slack app manifest `iris slack manifest` prints, to paste at api.slack.com/apps → Create New
// App → From a manifest: Socket Mode on (no public URL needed), the two events Iris answers
// (app_mention in channels, message.im in DMs), and the three bot scopes they need to be read and
// answered. The Messages tab is on and writable, or users cannot DM the bot.
export const SLACK_SCOPES = ['app_mentions:read', 'chat:write', 'im:history'] as const;
export const SLACK_EVENTS = ['app_mention', 'message.im'] as const;

export function slackManifest(name = 'Iris'): Record<string, unknown> {
  return {
    display_information: { name, description: 'A self-hosted agent: DM it, or mention it in a channel' },
    features: {
      app_home: { home_tab_enabled: false, messages_tab_enabled: true, messages_tab_read_only_enabled: false },
      bot_user: { display_name: name, always_online: true },
    },
    oauth_config: { scopes: { bot: [...SLACK_SCOPES] } },
    settings: {
      event_subscriptions: { bot_events: [...SLACK_EVENTS] },
      interactivity: { is_enabled: false },
      org_deploy_enabled: false,
      socket_mode_enabled: true,
      token_rotation_enabled: false,
    },
  };
}
