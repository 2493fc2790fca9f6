/**
 * Mentions belong to the core. Message text used to carry mentions as bot-facing
 * snowflakes (`<@123…>`), so only the bot API boundary could tell whom a message
 * mentions. From now on stored text names users, roles and channels by internal id
 * (`<@uuid>`, `<@&uuid>`, `<#uuid>`; the boundary translates both ways), and who a
 * message mentions is decided when it is written and kept with it, as the reference
 * platform does (reference-gaps 2.7: editing content recomputes mentions).
 *
 * Existing text is rewritten through the snowflake map, and the mention lists are filled
 * from it: every mentioned user that exists, every mentioned role of the message's server.
 */
import type { Database } from "bun:sqlite";

const WIRE = /<(@!?|@&|#)(\d{17,20})>/g;

export const m004 = {
  version: 4,
  sql: /* sql */ `
ALTER TABLE messages ADD COLUMN mentions TEXT NOT NULL DEFAULT '[]';
ALTER TABLE messages ADD COLUMN mention_roles TEXT NOT NULL DEFAULT '[]';
`,
  run(db: Database): void {
    const rows = db
      .query(
        "SELECT m.id, m.content, m.embeds, c.guild_id FROM messages m JOIN channels c ON c.id = m.channel_id WHERE m.content LIKE '%<%' OR m.embeds LIKE '%<%'",
      )
      .all() as { id: string; content: string; embeds: string; guild_id: string | null }[];
    const byFlake = db.query("SELECT uuid FROM snowflakes WHERE flake = ?");
    const isUser = db.query("SELECT 1 FROM users WHERE id = ?");
    const isRole = db.query("SELECT 1 FROM roles WHERE id = ? AND guild_id = ?");
    const update = db.query("UPDATE messages SET content = ?, embeds = ?, mentions = ?, mention_roles = ? WHERE id = ?");
    const internal = (text: string) =>
      text.replace(WIRE, (all, kind: string, flake: string) => {
        const row = BigInt(flake) < 1n << 63n ? (byFlake.get(BigInt(flake)) as { uuid: string } | null) : null;
        return row ? `<${kind}${row.uuid}>` : all;
      });
    for (const r of rows) {
      const content = internal(r.content);
      const embeds = internal(r.embeds);
      const users = new Set<string>();
      const roles = new Set<string>();
      for (const [, kind, id] of content.matchAll(/<(@!?|@&)([0-9a-f-]{36})>/g)) {
        if (kind === "@&") {
          if (r.guild_id && isRole.get(id, r.guild_id)) roles.add(id);
        } else if (isUser.get(id)) users.add(id);
      }
      update.run(content, embeds, JSON.stringify([...users]), JSON.stringify([...roles]), r.id);
    }
  },
};
