import type { Command, CommandOption } from "../../core";
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

/**
 * A sub-command or group without options is shown without the key, as the reference
 * shows it (and as the command itself is): frameworks that compare what they would
 * register with what is stored (discordx) otherwise see `options: []` as a change and
 * overwrite every command at every start.
 */
function shownOptions(opts: CommandOption[]): CommandOption[] {
  return opts.map((o) => {
    if (o.options === undefined) return o;
    const { options, ...rest } = o;
    return options.length ? { ...rest, options: shownOptions(options) } : rest;
  });
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
    contexts: b.contexts,
    integration_types: b.integration_types,
    nsfw: b.nsfw,
  };
  // `dm_permission` belongs to global commands only: the reference leaves it off a server's
  // commands, and discordx compares a server command as having none.
  if (c.guild_id) out.guild_id = f.of(c.guild_id);
  else out.dm_permission = b.dm_permission;
  if (b.options.length) out.options = shownOptions(b.options);
  return out;
}
