/**
 * Two of a server's emoji may share a name, as on the reference (core/emojis.ts): an
 * emoji is its id, and a bot cloning one into its own server (discord.py's secret.py)
 * keeps the name. The unique index becomes a plain one for listing by name.
 */
export const m025 = {
  version: 25,
  sql: /* sql */ `
DROP INDEX emojis_by_name;
CREATE INDEX emojis_by_name ON emojis (guild_id, name);
`,
};
