import type { Command } from "../../core";
import type { Ids } from "../snowflakes";
import { EPOCH } from "../snowflakes";

/** Smallest timestamp part that keeps 17 digits (as in snowflakes.ts). */
const MIN_TS = 2_384_185_792n;

/**
 * A command's `version` (spec 2.4, 9.3): snowflake-like, as the reference's is. The
 * timestamp part is the command's creation and the low 22 bits its update counter, so
 * it is stable between reads and strictly increases with every update.
 */
export function commandVersion(c: Pick<Command, "created_at" | "version">): string {
  let ts = BigInt(Math.max(0, c.created_at - EPOCH));
  if (ts < MIN_TS) ts = MIN_TS;
  return ((ts << 22n) | BigInt(c.version & 0x3fffff)).toString();
}

/** ApplicationCommand (spec 2.4). */
export function commandJson(f: Ids, c: Command) {
  const b = c.body;
  const out: Record<string, unknown> = {
    id: f.of(c.id),
    application_id: f.of(c.application_id),
    version: commandVersion(c),
    default_member_permissions: b.default_member_permissions,
    type: b.type,
    name: b.name,
    name_localizations: b.name_localizations,
    description: b.description,
    description_localizations: b.description_localizations,
    dm_permission: b.dm_permission,
    contexts: b.contexts,
    integration_types: b.integration_types,
    nsfw: b.nsfw,
  };
  if (c.guild_id) out.guild_id = f.of(c.guild_id);
  if (b.options.length) out.options = b.options;
  return out;
}
