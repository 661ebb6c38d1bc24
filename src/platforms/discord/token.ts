// Where the bot token comes from; its own module so the doctor can name it without loading the
// adapter (and `ws` with it).
export const TOKEN_ENV = 'DISCORD_BOT_TOKEN';
