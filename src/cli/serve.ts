/**
 * `parley serve`: open the database, seed, listen, print the banner, and shut down
 * gracefully on SIGTERM or SIGINT. Every start-up failure is one line (errors.ts).
 */
import { accessSync, constants, mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { format } from "node:util";
import { ConfigError, redactUrl, VERSION, type Config } from "../config";
import { createParley, type Parley } from "../app";
import { DomainError } from "../core";
import { CliError, databaseFailure, listenFailure, refusalLine } from "./errors";
import { createDemoWorld } from "./demo";
import type { Out } from "./operator";

/** Start-up steps and how long each took, for --timings. */
class Timings {
  private last = performance.now();
  readonly steps: [string, number][] = [];
  constructor(readonly enabled: boolean) {
    // performance.now() counts from the process's start: this is the runtime and every import.
    this.steps.push(["start the runtime and load the modules", this.last]);
  }
  mark = (step: string) => {
    const now = performance.now();
    this.steps.push([step, now - this.last]);
    this.last = now;
  };
  print(out: Out) {
    if (!this.enabled) return;
    for (const [step, ms] of this.steps) out(`timings: ${ms.toFixed(1).padStart(7)} ms  ${step}`);
    out(`timings: ${performance.now().toFixed(1).padStart(7)} ms  since the process started`);
  }
}

/**
 * A --media-dir that cannot hold files would fail every upload, each as its own 5xx, with
 * nothing at start-up to say why: refuse it there, in one line, as a bad --data is.
 */
function checkMediaDir(config: Config): void {
  if (!config.mediaDir) return; // media/ in --data: the data directory's own check covers it
  try {
    mkdirSync(config.mediaDir, { recursive: true });
    accessSync(config.mediaDir, constants.W_OK);
  } catch (e) {
    const code = (e as { code?: string }).code ?? String(e);
    throw new CliError(
      `the media directory '${config.mediaDir}' cannot be used (${code}): give --media-dir (or PARLEY_MEDIA_DIR) a directory Parley may create and write`,
    );
  }
}

function open(config: Config, t: Timings, out: Out): Parley {
  checkMediaDir(config);
  const first = (ms: number) => out(`timings: ${ms.toFixed(1).padStart(7)} ms  first answer, since the process started`);
  try {
    // exclusive: one server per data directory (store/lock.ts), taken before the database opens.
    return createParley(config, { mark: t.mark, firstAnswered: t.enabled ? first : undefined, deferObservability: true, exclusive: true });
  } catch (e) {
    throw databaseFailure(e, config) ?? e;
  }
}

function seed(p: Parley, file: string, out: Out, config: Config): void {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new ConfigError(`--seed: cannot read JSON from '${file}'`);
  }
  // A restart with the same flags (a container's, say) finds its world there: it serves
  // it, as --demo does, rather than refusing to start over the seed's first duplicate name.
  if (p.core.users.count() > 0) {
    out(
      `seed: the database already holds a world, so '${file}' was not seeded again (--seed fills an empty database; tokens are shown only once)`,
    );
    return;
  }
  try {
    const r = p.importWorld(doc);
    if (config.quiet) return;
    if (r.kind === "seeded") out(`seeded world: ${JSON.stringify(r.answer)}`);
    else
      out(
        `imported world: ${r.people} people, ${r.servers} servers, ${r.messages} messages; no application has a token yet (parley app rotate)`,
      );
  } catch (e) {
    if (e instanceof DomainError) throw new CliError(`--seed: ${file}: ${refusalLine(e)}`, 2);
    throw e;
  }
}

/** Start the server; resolves once it listens. With `signals`, SIGTERM/SIGINT shut it down and exit. */
export async function serve(config: Config, print: Out, opts: { signals: boolean } = { signals: true }): Promise<Parley> {
  // Under --log-format json every line is the log's JSON, notes and timings included (a log shipper reads them all).
  const out = config.logFormat === "json" ? jsonLine("info", print) : print;
  const t = new Timings(config.timings);
  const p = open(config, t, out);
  try {
    if (config.seedFile) seed(p, config.seedFile, out, config);
    // Before listening: a bot that connects at once finds the whole world.
    const demo = config.demo ? createDemoWorld(p, operatorCommand(config)) : null;
    if (config.demo) t.mark("create the demo world");
    try {
      p.listen();
    } catch (e) {
      throw listenFailure(e, config) ?? databaseFailure(e, config) ?? e;
    }
    t.mark("listen");
    // Before the banner: whoever waits for "listening" may signal at once.
    if (opts.signals) onSignals(p, config);
    if (opts.signals) consoleToLog(p);
    if (demo) for (const line of demo(p.api.urls)) out(line);
    if (!config.quiet) banner(p, config, print);
    t.print(out);
  } catch (e) {
    await p.stop();
    throw e;
  }
  return p;
}

/** What the server tells its operator once it listens: where everything is, and how to administer it. */
function banner(p: Parley, config: Config, out: Out): void {
  const { base, gateway, portal } = p.api.urls;
  const data = config.database
    ? `Postgres ${redactUrl(config.database)}, key in ${config.data}`
    : config.data === ":memory:"
      ? "in memory"
      : config.dbPath;
  // "parley listening on <url> " is what scripts (and the test SDK) wait for: keep it first, in either format.
  const listening = `parley listening on ${base} (version ${VERSION}; data: ${data})`;
  const setup = config.harness ? null : p.core.setup.token();
  // Bound to every address with no public one given, the addresses handed to bots (GET /gateway) reach only this machine.
  const wildcard = !config.baseUrl && ["0.0.0.0", "::", "[::]"].includes(config.host);
  const unreachable = `--host ${config.host} without --base-url: bots are told ${gateway}, which no other machine can reach; give --base-url and --gateway-url the addresses they use`;
  if (config.logFormat === "json") {
    // A log shipper reads every line: the same facts, one JSON object, as the log's own lines are.
    const where = { version: VERSION, base, bot_api: `${base}/api/v10`, gateway, portal, admin: `${base}/admin` };
    out(logRecord("info", { ...where, ...(config.harness ? { harness: `${base}/api/harness/v1` } : {}) }, listening));
    if (setup !== null) {
      const [cmd, data] = operatorCommand(config);
      const how = `no administrator yet: open the setup link to create the administrator's account (or make yours one), once; or '${cmd} user admin <name>${data}'`;
      out(logRecord("warn", { setup_url: `${base}/setup/${setup}` }, how));
    }
    if (wildcard) out(logRecord("warn", {}, unreachable));
    return;
  }
  out(listening);
  out(`  bot API   ${base}/api/v10`);
  out(`  gateway   ${gateway}`);
  out(`  portal    ${portal} (install links: ${portal}/install/<application_id>)`);
  out(`  admin     ${base}/admin`);
  out(`  health    ${base}/healthz, /readyz, /metrics`);
  if (config.harness) out(`  harness   ${base}/api/harness/v1 (test mode)`);
  if (setup !== null) noAdministrator(out, `${base}/setup/${setup}`, config);
  if (wildcard) out(`  note      ${unreachable}`);
}

/**
 * What a library prints by itself (Bun's SQL client warns on stderr at every retry of
 * its LISTEN while Postgres is away) goes through the log: a JSON line under
 * --log-format json, as a log shipper expects of every line, and the same text once per
 * RUNTIME_REPEAT_MS rather than at every retry (the node's own "database unavailable"
 * already says what is wrong).
 */
function consoleToLog(p: Parley): void {
  const said = new Map<string, number>();
  const to =
    (level: "warn" | "error") =>
    (...args: unknown[]) => {
      const msg = format(...args);
      const now = Date.now();
      if ((said.get(msg) ?? Number.NEGATIVE_INFINITY) > now - RUNTIME_REPEAT_MS) return;
      said.set(msg, now);
      if (said.size > 100) said.delete(said.keys().next().value!);
      p.obs.log[level](msg, { source: "runtime" });
    };
  console.warn = to("warn");
  console.error = to("error");
}

const RUNTIME_REPEAT_MS = 10_000;

function onSignals(p: Parley, config: Config): void {
  let stopping = false;
  const stop = async (signal: string) => {
    // A second signal while draining: the operator means now.
    if (stopping) process.exit(1);
    stopping = true;
    // Whatever happens inside, the process ends within the time allowed (and a little).
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 2000).unref();
    p.obs.log.info("shutting down", { signal, timeout_s: config.shutdownTimeoutMs / 1000 });
    let r: Awaited<ReturnType<Parley["shutdown"]>>;
    try {
      r = await p.shutdown(config.shutdownTimeoutMs);
    } catch (e) {
      // A last write that fails (a full disk) still ends the process as a stop does: one
      // log line and exit 1 (the log is written on exit), not an unhandled rejection's
      // stack trace. What was committed stays; the lock goes with the process.
      const code = (e as { code?: unknown })?.code;
      p.obs.log.error("stopped, but the last writes failed", { error: e instanceof Error ? e.message : String(e), code });
      process.exit(1);
    }
    const how = r.clean ? "stopped" : `stopped after ${config.shutdownTimeoutMs / 1000} s with ${r.requestsCut} requests unanswered`;
    p.obs.log.info(how, { gateway_sockets_closed: r.socketsClosed, ms: Math.round(r.ms) });
    process.exit(r.clean ? 0 : 1);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

/**
 * A new instance has nobody who may open /admin (approve a bot's privileged intents,
 * decide who signs up) until someone is made so: say how, where the operator looks first.
 * The link is for the self-hoster who opens the server in a browser; it works until
 * anyone administers the instance (core/setup-link.ts).
 */
function noAdministrator(out: Out, link: string, config: Config): void {
  const [parley, data] = operatorCommand(config);
  out(`  no administrator yet: open ${link}`);
  out("                        to create the administrator's account (or make yours one), once;");
  out(`                        or '${parley} user admin <name>${data}' makes a person who signed up one,`);
  out(`                        or '${parley} user create <name> --password <password> --admin${data}' creates one`);
}

const DEFAULT_DATA = "./parley-data";

/** One line of the log's JSON, with the fields pino writes (level, time, msg). */
function logRecord(level: "info" | "warn" | "error", fields: Record<string, unknown>, msg: string): string {
  return JSON.stringify({ level, time: new Date().toISOString(), ...fields, msg });
}

/** Each line as the log's JSON, its "parley: " prefix and indentation dropped. */
export function jsonLine(level: "info" | "error", write: Out): Out {
  return (line) => write(logRecord(level, {}, line.replace(/^parley: /, "").trim()));
}

/**
 * How the operator runs a command on this server's data: the compiled executable is
 * `parley` (its code lives under Bun's /$bunfs/), a clone's is `npx parley`; and the
 * ` --data DIR` to add, unless the commands find this data directory by themselves (on
 * Postgres as well: it holds the key the database checks them against).
 */
export function operatorCommand(config: Pick<Config, "data" | "database">, main = Bun.main): [string, string] {
  const parley = main.startsWith("/$bunfs/") || main.startsWith("B:/~BUN/") ? "parley" : "npx parley";
  // On Postgres the commands need the database too (its URL holds a password: not printed),
  // and still --data: they read secret.key there, and one elsewhere is refused.
  const database = config.database ? " --database <the server's --database>" : "";
  if (config.data === ":memory:" || resolve(config.data) === resolve(DEFAULT_DATA)) return [parley, database];
  return [parley, ` --data ${/[\s'"$]/.test(config.data) ? JSON.stringify(config.data) : config.data}${database}`];
}
