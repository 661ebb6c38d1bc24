// The two Slack tokens Iris reads from .env (no code: the doctor imports this without the adapter).
/** The bot token (xoxb-): chat.postMessage and auth.test. */
export const BOT_TOKEN_ENV = 'SLACK_BOT_TOKEN';
/** The app-level token (xapp-, scope connections:write): apps.connections.open for Socket Mode. */
export const APP_TOKEN_ENV = 'SLACK_APP_TOKEN';
