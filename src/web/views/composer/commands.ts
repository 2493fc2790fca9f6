/**
 * What the `/` list offers, as the reference's picker does: each command a person can
 * run as one entry, and a command with subcommands as one entry per leaf
 * (`/settings set`, `/settings group view`) with the leaf's own description and options.
 * What one types after `/` is matched against the whole path; a whole path and a space
 * choose it.
 */
import type { RawOption } from "../../actions";
import type { Command, CommandOption } from "../../types";

const SUB_COMMAND = 1;
const SUB_COMMAND_GROUP = 2;

export interface CommandEntry {
  /** Unique among the entries (an element id's tail). */
  key: string;
  command: Command;
  /** The group and subcommand names under the command ([] for a plain command). */
  path: string[];
  /** "settings group view": what the person types after `/`. */
  label: string;
  description: string;
  /** The leaf's own options: the fields its form asks for. */
  options: CommandOption[];
}

/** A command's leaves in the order the bot declared them. */
export function leaves(c: Command): CommandEntry[] {
  const walk = (options: CommandOption[], path: string[], description: string): CommandEntry[] => {
    const subs = options.filter((o) => o.type === SUB_COMMAND || o.type === SUB_COMMAND_GROUP);
    if (!subs.length) {
      const label = [c.name, ...path].join(" ");
      return [{ key: [c.id, ...path].join("-"), command: c, path, label, description, options }];
    }
    return subs.flatMap((o) => walk(o.options ?? [], [...path, o.name], o.description));
  };
  return walk(c.options, [], c.description);
}

/** The entries whose path starts with what was typed (spaces between names, any case). */
export function matching(commands: Command[], typed: string): CommandEntry[] {
  const q = typed.toLowerCase();
  return commands.flatMap(leaves).filter((e) => e.label.startsWith(q));
}

/**
 * The one entry whose whole path was typed and then a space ("/settings group view "):
 * the reference takes that as choosing it. Null when none is, or when two bots' are.
 */
export function typedWhole(commands: Command[], typed: string): CommandEntry | null {
  if (!typed.endsWith(" ")) return null;
  const q = typed.trimEnd().toLowerCase();
  const found = commands.flatMap(leaves).filter((e) => e.label === q);
  return found.length === 1 ? found[0] : null;
}

/**
 * A leaf's values as the interaction carries them: nested under its subcommand and group
 * (SUB_COMMAND_GROUP > SUB_COMMAND > options), as the reference sends them.
 */
export function nest(path: string[], options: RawOption[]): RawOption[] {
  let out = options;
  for (const name of [...path].reverse()) out = [{ name, options: out }];
  return out;
}
