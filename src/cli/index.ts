/**
 * The `parley` command line: `serve`, and the operations a self-hoster needs before any
 * web page exists. Operator commands open the same database the server uses (WAL lets
 * them run beside a live server). Run as `npx parley ...` in a clone, or as the compiled
 * `parley ...`.
 */
import { ConfigError, loadConfig, parseFlags, SERVE_FLAGS, VERSION } from "../config";
import { createParley } from "../app";
import { DomainError } from "../core";
import { CliError, databaseFailure, refusalLine } from "./errors";
import { OPERATOR_COMMANDS, type Command, type Out } from "./operator";
import { PEOPLE_COMMANDS } from "./people";
import { DATA_COMMANDS, MEDIA_COMMANDS } from "./data";
import { MIGRATE_COMMAND } from "./migrate";
import { ADMIN_COMMANDS } from "./admin";
import { jsonLine, serve } from "./serve";
import { existsSync } from "node:fs";
import { join } from "node:path";

const COMMANDS: Command[] = [
  ...PEOPLE_COMMANDS,
  ...OPERATOR_COMMANDS,
  ...ADMIN_COMMANDS,
  ...DATA_COMMANDS,
  MIGRATE_COMMAND,
  ...MEDIA_COMMANDS,
];
/** The words that start two-word commands ("user", "guild", "app", "invite", "registration", "media"). */
const GROUPS = new Set(COMMANDS.filter((c) => c.name.includes(" ")).map((c) => c.name.split(" ")[0]));

/** "  usage   summary", the summary on its own line when the usage is long. */
function helpLine(usage: string, summary: string): string {
  return usage.length < 36 ? `  ${usage.padEnd(36)}${summary}` : `  ${usage}\n  ${"".padEnd(36)}${summary}`;
}

const TOP_HELP = `parley ${VERSION}: a self-hosted chat service with a v10 bot API

Usage:
${helpLine("parley serve [flags]", "start the server")}
${COMMANDS.map((c) => helpLine(c.usage, c.summary)).join("\n")}

Every command takes --help and --version. Run 'parley <command> --help' for its flags.`;

/** Rows of columns, each as wide as its widest cell and two spaces more, so none runs into the next. */
function columns(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)) + 2);
  return rows.map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]) : cell)).join("")).join("\n");
}

function serveHelp(): string {
  const rows = SERVE_FLAGS.map((f) => [`  --${f.name}${f.kind === "bool" ? "" : " VALUE"}`, f.env, f.help]);
  return `Usage: parley serve [flags]\n\nEvery flag can also be set through its environment variable.\n\n${columns(rows)}`;
}

/** `parley app` alone: the group's commands, as the top help shows them. */
function groupHelp(group: string): string {
  const cmds = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
  return `Usage: parley ${group} <command>\n\n${cmds.map((c) => helpLine(c.usage, c.summary)).join("\n")}\n\nRun 'parley ${group} <command> --help' for its flags.`;
}

/** Run the CLI. Returns the exit code; long-running `serve` resolves once listening. */
export async function main(
  argv: string[],
  env: Record<string, string | undefined>,
  out: Out = console.log,
  errOut: Out = console.error,
): Promise<number> {
  const [first, second] = argv;
  // A server logging JSON writes nothing else, its refusals to start included: a log
  // shipper reads every line (its own flags are not parsed yet when a flag is wrong).
  const json = first === "serve" && wantsJson(argv.slice(1), env);
  const err = json ? jsonLine("error", errOut) : errOut;
  if (argv.includes("--version") || argv.includes("-v")) {
    out(`parley ${VERSION}`);
    return 0;
  }
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
      await serve(loadConfig(flags, env), out);
      return 0;
    }
    // Two-word commands ("app rotate") and one-word ones ("backup").
    const cmd = COMMANDS.find((c) => c.name === `${first} ${second}`) ?? COMMANDS.find((c) => c.name === first);
    if (!cmd && GROUPS.has(first) && (!second || second.startsWith("-"))) {
      // "parley app" alone lists what it can do; with --help that is what was asked for.
      out(groupHelp(first));
      return second === "--help" || second === "-h" ? 0 : 2;
    }
    if (!cmd)
      throw new ConfigError(
        `unknown command '${[first, second].filter(Boolean).join(" ")}' (see ${GROUPS.has(first) ? `parley ${first}` : "parley --help"})`,
      );
    const args = argv.slice(cmd.name.split(" ").length);
    if (args.includes("--help") || args.includes("-h")) {
      out(`Usage: ${cmd.usage}\n\n${cmd.summary}\n\n${columns(cmd.flags.map((f) => [`  --${f.name}`, f.help]))}`);
      return 0;
    }
    await runCommand(cmd, args, env, out);
    return 0;
  } catch (e) {
    const code = failure(e, err);
    if (code === null) throw e;
    return code;
  }
}

/** A failure the operator can act on, as its one line; the exit code, or null for a bug. */
function failure(e: unknown, err: Out): number | null {
  if (e instanceof ConfigError) {
    err(`parley: ${e.message}`);
    return 2;
  }
  if (e instanceof CliError) {
    err(`parley: ${e.message}`);
    return e.code;
  }
  if (e instanceof DomainError) {
    err(`parley: ${refusalLine(e)}`);
    return 1;
  }
  return null;
}

/** `--log-format json` (or `=json`), else PARLEY_LOG_FORMAT, as the server will read them. */
function wantsJson(args: string[], env: Record<string, string | undefined>): boolean {
  for (let i = args.length - 1; i >= 0; i--) {
    if (args[i] === "--log-format") return args[i + 1]?.toLowerCase() === "json";
    if (args[i].startsWith("--log-format=")) return args[i].slice("--log-format=".length).toLowerCase() === "json";
  }
  return env.PARLEY_LOG_FORMAT?.toLowerCase() === "json";
}

/** How many words a command takes, as its usage shows them before its flags ("..." in the last: any number). */
function positionals(cmd: Command): number {
  const words = cmd.usage.split(" ").slice(1 + cmd.name.split(" ").length);
  const firstFlag = words.findIndex((w) => /^\[?--/.test(w));
  const before = firstFlag < 0 ? words : words.slice(0, firstFlag);
  return before.some((w) => w.includes("...")) ? Number.POSITIVE_INFINITY : before.length;
}

async function runCommand(cmd: Command, args: string[], env: Record<string, string | undefined>, out: Out): Promise<void> {
  const { flags, rest } = parseFlags(args, cmd.flags);
  const most = positionals(cmd);
  // A word too many is a slip (an unquoted name: guild create My Server), never to be dropped silently.
  if (rest.length > most)
    throw new ConfigError(
      `unexpected argument '${rest[most]}' (see parley ${cmd.name} --help)${most ? "; quote a name that holds spaces" : ""}`,
    );
  if (cmd.alone) return cmd.alone(rest, flags, env, out);
  const read = cmd.before?.(rest);
  // Only a flag that was given: an absent --data leaves PARLEY_DATA and the default in charge.
  const given = Object.fromEntries(["data", "media-dir"].filter((k) => flags[k] !== undefined).map((k) => [k, flags[k]]));
  const config = loadConfig({ ...given, quiet: true }, env);
  // A server's in-memory world is its own: a command would act on a new, empty one of its
  // own, say it succeeded, and change nothing the server (or anyone) sees.
  if (config.data === ":memory:")
    throw new CliError(
      "--data :memory: names no database another process can reach: a server in memory is changed through its own APIs (the harness, the portal, /admin); give the command the data directory of a server that has one",
      2,
    );
  // Only serve and import make a data directory: anything else where there is none is a slip.
  if (!config.database && cmd.database === "existing" && !existsSync(config.dbPath))
    throw new CliError(
      `no database at ${config.dbPath}: start the server there first (parley serve --data ${config.data}), or point --data (or PARLEY_DATA) at the data directory it uses`,
      2,
    );
  // On Postgres, --data holds only the key the database checks commands against (store/keyfile.ts):
  // without one there, the command would make a new key (a stray data directory) only to be refused.
  if (config.database && cmd.database === "existing" && !existsSync(join(config.data, "secret.key")))
    throw new CliError(
      `no secret.key in '${config.data}': on Postgres a command needs a node's key; start a node there first, point --data (or PARLEY_DATA) at a node's data directory, or copy its secret.key there`,
      2,
    );
  let p;
  try {
    // Beside a running server, its live connections hear of what the command changed (store/relay.ts).
    p = createParley(config, { relayEvents: cmd.database === "existing" });
  } catch (e) {
    throw databaseFailure(e, config) ?? e;
  }
  try {
    await cmd.run(p, rest, flags, out, read);
  } catch (e) {
    // Only the store's own failures: a file the command itself writes has its own message.
    const code = String((e as { code?: unknown })?.code ?? "");
    throw (code.startsWith("SQLITE_") || code.startsWith("PARLEY_") ? databaseFailure(e, config) : null) ?? e;
  } finally {
    await p.stop();
  }
}
