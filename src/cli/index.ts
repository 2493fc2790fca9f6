/**
 * The `parley` command line: `serve`, and the operations a self-hoster needs before any
 * web page exists. Operator commands open the same database the server uses (WAL lets
 * them run beside a live server).
 */
import { readFileSync } from "node:fs";
import { ConfigError, loadConfig, parseFlags, SERVE_FLAGS } from "../config";
import { createParley, type Parley } from "../app";
import { DomainError } from "../core/errors";
import { intentBit, intentNames, PRIVILEGED_INTENTS } from "../core/permissions";
import { createApplicationWithToken, rotateToken } from "../wire/tokens";
import { createDemoWorld } from "./demo";

type Out = (line: string) => void;

interface Command {
  name: string;
  usage: string;
  summary: string;
  flags: { name: string; kind: "string" | "bool"; help: string }[];
  run(p: Parley, args: string[], flags: Record<string, string | boolean>, out: Out): void | Promise<void>;
}

const DATA_FLAG = { name: "data", kind: "string" as const, help: "data directory (default ./parley-data; env PARLEY_DATA)" };

function findApp(p: Parley, ref: string) {
  const byId = /^\d{17,20}$/.test(ref) ? p.api.flakes.uuid(ref) : null;
  const row = byId ? p.core.apps.get(byId) : (p.core.apps.named(ref)[0] ?? null);
  if (!row) throw new ConfigError(`no application '${ref}'`);
  return row;
}

function findPerson(p: Parley, ref: string) {
  const byId = /^\d{17,20}$/.test(ref) ? p.api.flakes.uuid(ref) : null;
  const u = byId ? p.core.users.get(byId) : p.core.users.byUsername(ref);
  if (!u || u.kind !== "person") throw new ConfigError(`no person '${ref}'`);
  return u;
}

function findGuild(p: Parley, ref: string) {
  const byId = /^\d{17,20}$/.test(ref) ? p.api.flakes.uuid(ref) : null;
  const g = byId ? p.core.guilds.get(byId) : (p.core.guilds.named(ref)[0] ?? null);
  if (!g) throw new ConfigError(`no server '${ref}'`);
  return g;
}

function parseIntents(list: string[]): number {
  let bits = 0;
  for (const item of list.flatMap((s) => s.split(",")).filter(Boolean)) {
    if (/^\d+$/.test(item)) bits |= Number(item);
    else {
      const b = intentBit(item);
      if (b === undefined) throw new ConfigError(`unknown intent '${item}'`);
      bits |= b;
    }
  }
  return bits;
}

const COMMANDS: Command[] = [
  {
    name: "user create",
    usage: "parley user create <username> [--password P] [--admin]",
    summary: "create a person",
    flags: [DATA_FLAG, { name: "password", kind: "string", help: "password (8+ characters) to sign in with" }, { name: "admin", kind: "bool", help: "make this person an administrator" }],
    async run(p, [name], f, out) {
      if (!name) throw new ConfigError("a username is required");
      const passwordHash = typeof f.password === "string" ? await p.core.users.preparePassword(name, f.password) : null;
      const u = p.core.users.createPerson({ username: name, passwordHash, admin: f.admin === true });
      out(`person ${u.username} id ${p.api.flakes.of(u.id)}${u.is_admin ? " (administrator)" : ""}`);
    },
  },
  {
    name: "guild create",
    usage: "parley guild create <name> --owner <person> [--channels general,random]",
    summary: "create a server owned by a person",
    flags: [DATA_FLAG, { name: "owner", kind: "string", help: "owning person (username or id)" }, { name: "channels", kind: "string", help: "comma-separated channel names" }],
    run(p, [name], f, out) {
      if (!name) throw new ConfigError("a server name is required");
      if (!f.owner) throw new ConfigError("--owner is required");
      const owner = findPerson(p, String(f.owner));
      const channels = f.channels ? String(f.channels).split(",").filter(Boolean) : undefined;
      const g = p.core.guilds.create({ name, ownerId: owner.id, channels });
      out(`server ${g.name} id ${p.api.flakes.of(g.id)}`);
      for (const c of p.core.guilds.channels(g.id)) out(`  #${c.name} id ${p.api.flakes.of(c.id)}`);
    },
  },
  {
    name: "app create",
    usage: "parley app create <name> --owner <person> [--description D]",
    summary: "create an application and its bot; prints the token once",
    flags: [DATA_FLAG, { name: "owner", kind: "string", help: "owning person (username or id)" }, { name: "description", kind: "string", help: "description" }],
    run(p, [name], f, out) {
      if (!name) throw new ConfigError("an application name is required");
      if (!f.owner) throw new ConfigError("--owner is required");
      const owner = findPerson(p, String(f.owner));
      const { app, bot, token } = createApplicationWithToken(p.core.apps, p.api.flakes, { ownerId: owner.id, name, description: f.description as string | undefined });
      out(`application ${app.name} id ${p.api.flakes.of(app.id)} bot user id ${p.api.flakes.of(bot.id)}`);
      out(`token (shown once): ${token}`);
    },
  },
  {
    name: "app rotate",
    usage: "parley app rotate <app>",
    summary: "mint a new token; the old one stops working at once",
    flags: [DATA_FLAG],
    run(p, [ref], _f, out) {
      const a = findApp(p, ref ?? "");
      out(`token (shown once): ${rotateToken(p.core.apps, p.api.flakes, a.id)}`);
    },
  },
  {
    name: "app intents",
    usage: "parley app intents <app> <INTENT,...>",
    summary: "set the intents the application asks for (effective from the next token)",
    flags: [DATA_FLAG],
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
    run(p, [ref, ...list], f, out) {
      const a = findApp(p, ref ?? "");
      const bits = parseIntents(list);
      if (bits & ~PRIVILEGED_INTENTS) throw new ConfigError("only GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT need approval");
      const next = p.core.apps.approvePrivileged(a.id, null, bits, f.revoke !== true);
      out(`approved privileged intents: ${intentNames(next.privileged_approved).join(", ") || "none"}`);
      out("rotate the token for the new grant to take effect (parley app rotate)");
    },
  },
  {
    name: "app install",
    usage: "parley app install <app> --guild <server>",
    summary: "add the application's bot to a server (as the server's owner)",
    flags: [DATA_FLAG, { name: "guild", kind: "string", help: "server name or id" }],
    run(p, [ref], f, out) {
      const a = findApp(p, ref ?? "");
      if (!f.guild) throw new ConfigError("--guild is required");
      const g = findGuild(p, String(f.guild));
      p.core.apps.install(a.id, g.id, g.owner_id);
      out(`installed ${a.name} into ${g.name}`);
    },
  },
  {
    name: "app delete",
    usage: "parley app delete <app>",
    summary: "delete an application: its bot leaves every server; token, webhooks and commands stop at once",
    flags: [DATA_FLAG],
    run(p, [ref], _f, out) {
      const a = findApp(p, ref ?? "");
      p.core.apps.delete(a.id);
      out(`deleted ${a.name}`);
    },
  },
  {
    name: "app list",
    usage: "parley app list",
    summary: "list applications",
    flags: [DATA_FLAG],
    run(p, _a, _f, out) {
      for (const a of p.core.apps.all())
        out(`${p.api.flakes.of(a.id)}  ${a.name}  intents=${intentNames(p.core.apps.grant(a)).join(",")}  token v${a.token_version}`);
    },
  },
];

const TOP_HELP = `parley: a self-hosted chat service with a v10 bot API

Usage:
  parley serve [flags]          start the server
${COMMANDS.map((c) => `  ${c.usage.replace(/^parley /, "").padEnd(28)}${c.summary}`).join("\n")}

Run 'parley <command> --help' for a command's flags.`;

function serveHelp(): string {
  return `Usage: parley serve [flags]\n\nEvery flag can also be set through its environment variable.\n\n${SERVE_FLAGS.map(
    (f) => `  --${f.name}${f.kind === "bool" ? "" : " VALUE"}`.padEnd(26) + `${f.env.padEnd(22)}${f.help}`,
  ).join("\n")}`;
}

/** Run the CLI. Returns the exit code; long-running `serve` resolves once listening. */
export async function main(argv: string[], env: Record<string, string | undefined>, out: Out = console.log, err: Out = console.error): Promise<number> {
  const [first, second] = argv;
  if (!first || first === "--help" || first === "-h" || first === "help") {
    out(TOP_HELP);
    return first ? 0 : 2;
  }
  try {
    if (first === "serve") {
      const rest = argv.slice(1);
      if (rest.includes("--help") || rest.includes("-h")) {
        out(serveHelp());
        return 0;
      }
      const { flags, rest: positional } = parseFlags(rest, SERVE_FLAGS);
      if (positional.length) throw new ConfigError(`unexpected argument '${positional[0]}'`);
      const config = loadConfig(flags, env);
      await serve(config, out);
      return 0;
    }
    const cmd = COMMANDS.find((c) => c.name === `${first} ${second}`);
    if (!cmd) throw new ConfigError(`unknown command '${[first, second].filter(Boolean).join(" ")}' (see parley --help)`);
    const args = argv.slice(2);
    if (args.includes("--help") || args.includes("-h")) {
      out(`Usage: ${cmd.usage}\n\n${cmd.summary}\n\n${cmd.flags.map((f) => `  --${f.name}`.padEnd(18) + f.help).join("\n")}`);
      return 0;
    }
    const { flags, rest } = parseFlags(args, cmd.flags);
    const config = loadConfig({ data: flags.data ?? "", quiet: true }, env);
    const p = createParley(config);
    try {
      await cmd.run(p, rest, flags, out);
    } finally {
      await p.stop();
    }
    return 0;
  } catch (e) {
    if (e instanceof ConfigError) {
      err(`parley: ${e.message}`);
      return 2;
    }
    if (e instanceof DomainError) {
      err(`parley: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

async function serve(config: ReturnType<typeof loadConfig>, out: Out): Promise<void> {
  const p = createParley(config);
  if (config.seedFile) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(config.seedFile, "utf8"));
    } catch {
      throw new ConfigError(`--seed: cannot read JSON from '${config.seedFile}'`);
    }
    const seeded = p.seed(doc);
    if (!config.quiet) out(`seeded world: ${JSON.stringify(seeded)}`);
  }
  const server = p.listen();
  if (config.demo) for (const line of createDemoWorld(p)) out(line);
  if (!config.quiet) {
    out(`parley listening on ${p.api.urls.base} (data: ${config.data === ":memory:" ? "in memory" : config.dbPath})`);
    out(`  bot API   ${p.api.urls.base}/api/v10`);
    out(`  gateway   ${p.api.urls.gateway}`);
    if (config.harness) out(`  harness   ${p.api.urls.base}/api/harness/v1 (test mode)`);
  }
  const shutdown = async () => {
    await p.stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  void server;
}
