/**
 * The operator's commands on people, servers and applications. They open the same
 * database the server uses (WAL lets them run beside a live server); a name that more
 * than one thing carries is refused with the ids to use instead.
 */
import { PRIVILEGED_INTENTS, intentBit, intentNames } from "../core";
import type { Parley } from "../app";
import { createApplicationWithToken, rotateToken } from "../wire/tokens";
import { CliError } from "./errors";

export type Out = (line: string) => void;
export type Flags = Record<string, string | boolean>;

export interface FlagDef {
  name: string;
  kind: "string" | "bool";
  help: string;
}

export interface Command {
  name: string;
  usage: string;
  summary: string;
  flags: FlagDef[];
  /**
   * "existing": refuse when the data directory holds no database yet (the usual typo);
   * "own": the command opens what it needs itself (`alone`), not the one database.
   */
  database: "existing" | "create" | "own";
  /**
   * What the command reads before any database is opened (import: its file), so that a
   * slip in it leaves no data directory behind. Its answer is run()'s fifth argument.
   */
  before?(args: string[]): unknown;
  run(p: Parley, args: string[], flags: Flags, out: Out, read?: unknown): void | Promise<void>;
  /** A command that opens its own databases (`parley migrate`: two at once) runs this instead of run(). */
  alone?(args: string[], flags: Flags, env: Record<string, string | undefined>, out: Out): Promise<void>;
}

export const DATA_FLAG: FlagDef = { name: "data", kind: "string", help: "data directory (default ./parley-data; env PARLEY_DATA)" };
const OWNER_FLAG: FlagDef = { name: "owner", kind: "string", help: "owning person (username or id)" };

const SNOWFLAKE = /^\d{17,20}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as the operator may type it: a snowflake (what bots see) or an internal id (the people's API's). */
function idOf(p: Parley, ref: string): string | null {
  if (SNOWFLAKE.test(ref)) return p.api.flakes.uuid(ref);
  return UUID.test(ref) ? ref.toLowerCase() : null;
}

function one<T extends { id: string }>(p: Parley, what: string, ref: string, rows: T[]): T {
  if (!ref) throw new CliError(`name the ${what} (its name or id)`, 2);
  if (rows.length === 0)
    throw new CliError(`no ${what} '${ref}' (list them with 'parley ${what === "application" ? "app" : "guild"} list')`, 2);
  if (rows.length > 1)
    throw new CliError(
      `${rows.length} ${what}s are named '${ref}': name one by its id: ${rows.map((r) => p.api.flakes.of(r.id)).join(", ")}`,
      2,
    );
  return rows[0];
}

export function findApp(p: Parley, ref: string) {
  const id = idOf(p, ref);
  const byId = id ? p.core.apps.get(id) : null;
  return one(p, "application", ref, byId ? [byId] : p.core.apps.named(ref));
}

export function findGuild(p: Parley, ref: string) {
  const id = idOf(p, ref);
  const byId = id ? p.core.guilds.get(id) : null;
  return one(p, "server", ref, byId ? [byId] : p.core.guilds.named(ref));
}

export function findPerson(p: Parley, ref: string) {
  const id = idOf(p, ref);
  const u = id ? p.core.users.get(id) : p.core.users.byUsername(ref);
  if (!u || u.kind !== "person") throw new CliError(`no person '${ref}'`, 2);
  return u;
}

function parseIntents(list: string[]): number {
  const items = list.flatMap((s) => s.split(",")).filter(Boolean);
  // An empty list is a slip (a missing argument), not a wish to clear: "none" says that.
  if (items.length === 0) throw new CliError("list the intents (e.g. GUILDS,GUILD_MESSAGES), or 'none' to ask for none", 2);
  if (items.length === 1 && items[0].toLowerCase() === "none") return 0;
  let bits = 0;
  for (const item of items) {
    if (/^\d+$/.test(item)) bits |= Number(item);
    else {
      const b = intentBit(item);
      if (b === undefined) throw new CliError(`unknown intent '${item}'`, 2);
      bits |= b;
    }
  }
  return bits;
}

export function required(value: string | boolean | undefined, what: string): string {
  if (typeof value !== "string" || !value) throw new CliError(`${what} is required`, 2);
  return value;
}

/**
 * The install link, under the portal of the server running on this data directory (its
 * addresses are in its serving.json); with none running, under the address this
 * command's settings give, and saying so.
 */
function installLink(p: Parley, appId: string, out: Out): void {
  const running = p.runningServer();
  const portal = running?.portal ?? p.api.urls.portal;
  out(`install link: ${portal}/install/${p.api.flakes.of(appId)}`);
  if (!running?.portal)
    out(
      `  (no server is running on this data directory: the link assumes it will listen at ${p.api.urls.base}, from PARLEY_PORT, PARLEY_HOST and PARLEY_BASE_URL or PARLEY_PORTAL_URL, or their defaults)`,
    );
}

export const OPERATOR_COMMANDS: Command[] = [
  {
    name: "guild create",
    usage: "parley guild create <name> --owner <person> [--channels general,random]",
    summary: "create a server owned by a person",
    flags: [DATA_FLAG, OWNER_FLAG, { name: "channels", kind: "string", help: "comma-separated channel names" }],
    database: "existing",
    run(p, [name], f, out) {
      const owner = findPerson(p, required(f.owner, "--owner"));
      const channels = f.channels ? String(f.channels).split(",").filter(Boolean) : undefined;
      const g = p.core.guilds.create({ name: required(name, "a server name"), ownerId: owner.id, channels });
      out(`server ${g.name} id ${g.id} (bots see ${p.api.flakes.of(g.id)})`);
      for (const c of p.core.guilds.channels(g.id)) out(`  #${c.name} id ${c.id} (bots see ${p.api.flakes.of(c.id)})`);
    },
  },
  {
    name: "guild list",
    usage: "parley guild list",
    summary: "list servers",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, _a, _f, out) {
      const all = p.core.guilds.all();
      if (!all.length) out("no servers yet ('parley guild create')");
      for (const g of all) out(`${g.id}  ${p.api.flakes.of(g.id)}  ${g.name}`);
    },
  },
  {
    name: "app create",
    usage: "parley app create <name> --owner <person> [--description D]",
    summary: "create an application and its bot; prints the token once",
    flags: [DATA_FLAG, OWNER_FLAG, { name: "description", kind: "string", help: "description" }],
    database: "existing",
    run(p, [name], f, out) {
      const owner = findPerson(p, required(f.owner, "--owner"));
      const appName = required(name, "an application name");
      const namesake = p.core.apps.named(appName).length > 0;
      const { app, bot, token } = createApplicationWithToken(p.core.apps, p.api.flakes, {
        ownerId: owner.id,
        name: appName,
        description: f.description as string | undefined,
      });
      out(`application ${app.name} id ${p.api.flakes.of(app.id)} bot user id ${p.api.flakes.of(bot.id)}`);
      if (namesake) out(`note: another application is named ${app.name}; name this one by its id in commands`);
      out(`token (shown once): ${token}`);
      installLink(p, app.id, out);
    },
  },
  {
    name: "app list",
    usage: "parley app list",
    summary: "list applications",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, _a, _f, out) {
      const all = p.core.apps.all();
      if (!all.length) out("no applications yet ('parley app create')");
      for (const a of all)
        out(
          `${p.api.flakes.of(a.id)}  ${a.name}  intents=${intentNames(p.core.apps.grant(a)).join(",") || "none"}  ${a.token_version > 0 ? `token v${a.token_version}` : "no token (parley app rotate)"}${a.disabled_at === null ? "" : "  disabled"}`,
        );
    },
  },
  {
    name: "app rotate",
    usage: "parley app rotate <app>",
    summary: "mint a new token; the old one stops working at once",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [ref], _f, out) {
      const a = findApp(p, ref ?? "");
      out(`token (shown once): ${rotateToken(p.core.apps, p.api.flakes, a.id)}`);
    },
  },
  {
    name: "app intents",
    usage: "parley app intents <app> <INTENT,...|none>",
    summary: "set the intents the application asks for (effective from the next token)",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [ref, ...list], _f, out) {
      const a = findApp(p, ref ?? "");
      const next = p.core.apps.setIntents(a.id, parseIntents(list));
      out(`intents: ${intentNames(next.intents).join(", ") || "none"}`);
      const pending = next.privileged_requested & ~next.privileged_approved;
      if (pending) out(`awaiting approval: ${intentNames(pending).join(", ")} (parley app approve)`);
      out("rotate the token for the new intents to take effect (parley app rotate)");
    },
  },
  {
    name: "app approve",
    usage: "parley app approve <app> <PRIVILEGED_INTENT,...> [--revoke]",
    summary: "approve privileged intents, as the administrator",
    flags: [DATA_FLAG, { name: "revoke", kind: "bool", help: "withdraw the approval instead" }],
    database: "existing",
    run(p, [ref, ...list], f, out) {
      const a = findApp(p, ref ?? "");
      const bits = parseIntents(list);
      if (bits & ~PRIVILEGED_INTENTS) throw new CliError("only GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT need approval", 2);
      const next = p.core.apps.approvePrivileged(a.id, null, bits, f.revoke !== true);
      out(`approved privileged intents: ${intentNames(next.privileged_approved).join(", ") || "none"}`);
      // A revocation narrows the current token at once; a new approval needs a new token.
      if (f.revoke === true) out("the current token has lost them at once; its live sessions that asked for them have ended");
      else out("rotate the token for the new grant to take effect (parley app rotate)");
    },
  },
  {
    name: "app install",
    usage: "parley app install <app> --guild <server>",
    summary: "add the application's bot to a server (as the server's owner)",
    flags: [DATA_FLAG, { name: "guild", kind: "string", help: "server name or id" }],
    database: "existing",
    run(p, [ref], f, out) {
      const a = findApp(p, ref ?? "");
      const g = findGuild(p, required(f.guild, "--guild"));
      p.core.apps.install(a.id, g.id, g.owner_id);
      out(`installed ${a.name} into ${g.name}`);
    },
  },
  {
    name: "app disable",
    usage: "parley app disable <app> [--enable]",
    summary: "disable an application: its token is refused and its live sessions end at once",
    flags: [DATA_FLAG, { name: "enable", kind: "bool", help: "enable the application again instead (its token works again)" }],
    database: "existing",
    run(p, [ref], f, out) {
      const a = p.core.apps.setDisabled(findApp(p, ref ?? "").id, f.enable !== true);
      out(
        a.disabled_at === null
          ? `${a.name} is enabled; its token works again`
          : `${a.name} is disabled; its token is refused and its sessions have ended`,
      );
    },
  },
  {
    name: "app delete",
    usage: "parley app delete <app>",
    summary: "delete an application: its bot leaves every server; token, webhooks and commands stop at once",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [ref], _f, out) {
      const a = findApp(p, ref ?? "");
      p.core.apps.delete(a.id);
      out(`deleted ${a.name}`);
    },
  },
];
