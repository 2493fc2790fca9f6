/** Channel types (spec 2.x, the reference's numbers) and which of them carry messages. */
export const CHANNEL_TYPES = {
  GUILD_TEXT: 0,
  DM: 1,
  GUILD_VOICE: 2,
  GUILD_CATEGORY: 4,
  GUILD_ANNOUNCEMENT: 5,
} as const;

/**
 * The channels messages are sent in, by bots and people alike: text, DMs, announcement
 * channels, and voice channels, which carry text as on the reference (reading a voice
 * channel's history needs only what a text channel's does, reference-gaps 2.7, since
 * Parley has no CONNECT). Categories hold channels, not messages.
 */
export const TEXT_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  CHANNEL_TYPES.GUILD_TEXT,
  CHANNEL_TYPES.DM,
  CHANNEL_TYPES.GUILD_VOICE,
  CHANNEL_TYPES.GUILD_ANNOUNCEMENT,
]);
