/**
 * `npm start`: Parley with its demo world, and the example bot (examples/demo-bot.ts)
 * beside it, so a newcomer signs in as the demo person and talks to a real discord.js
 * bot in #general. Arguments go to `parley serve` (for example `npm start -- --port 8080`).
 *
 * A bot token is shown only once, so on every start but the first this script rotates
 * DemoBot's token (`parley app rotate DemoBot`) and hands the new one to the bot it
 * launches; any DemoBot token printed earlier stops working. Ctrl-C stops both.
 */
import { spawn, spawnSync, type Subprocess } from "bun";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const BUN = process.execPath;
const args = process.argv.slice(2);
const children: Subprocess[] = [];

/** How long the children get to finish before this script ends anyway. */
const STOP_MS = 15_000;

/**
 * Stop the server and the bot, and end once they have: a server still draining holds its
 * port and its data directory, so a script that ended first left an `npm start` run
 * straight after to find the directory in use.
 */
async function stopAll(code = 0): Promise<never> {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  await Promise.race([Promise.all(children.map((c) => c.exited)), Bun.sleep(STOP_MS)]);
  process.exit(code);
}
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

/** Echo a child's output line by line with a prefix, handing each line to `onLine`; resolves when it ends. */
async function echo(stream: ReadableStream<Uint8Array>, prefix: string, onLine: (line: string) => void = () => {}): Promise<void> {
  const decoder = new TextDecoder();
  let buf = "";
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      console.log(prefix + line);
      onLine(line);
    }
  }
}

const server = spawn([BUN, join(ROOT, "src/main.ts"), "serve", "--demo", ...args], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
children.push(server);
let firstToken: string | null = null;
let portal: string | null = null;
let installLink: string | null = null;
const base = await new Promise<string | null>((done) => {
  void echo(server.stdout, "", (line) => {
    firstToken ??= /bot token\s+(\S+)/.exec(line)?.[1] ?? null;
    installLink ??= /install link\s+(\S+)/.exec(line)?.[1] ?? null;
    portal ??= /^\s*portal\s+(\S+)/.exec(line)?.[1] ?? null;
    const m = /listening on (\S+)/.exec(line);
    if (m) done(m[1]);
  }).then(() => done(null));
});
if (!base) {
  console.error("npm start: the server did not start (see above)");
  await stopAll(1);
}

// First start: the demo world printed DemoBot's token. Later starts: a fresh one.
let token: string | null = firstToken;
let how = "the one the demo world was created with.";
if (!token) {
  const dataArg = args.findIndex((a) => a === "--data" || a.startsWith("--data="));
  const data = dataArg < 0 ? [] : args[dataArg].includes("=") ? [args[dataArg]] : ["--data", args[dataArg + 1] ?? ""];
  const r = spawnSync([BUN, join(ROOT, "src/main.ts"), "app", "rotate", "DemoBot", ...data], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  token = /token \(shown once\): (\S+)/.exec(r.stdout.toString())?.[1] ?? null;
  how = "rotated just now, as on every npm start:\n  a DemoBot token printed earlier no longer works.";
  if (!token)
    console.error(`npm start: could not rotate DemoBot's token, so the example bot is not started: ${r.stderr.toString().trim()}`);
}

if (token) {
  const bot = spawn([BUN, join(ROOT, "examples/demo-bot.ts")], {
    cwd: ROOT,
    env: { ...process.env, PARLEY_API: `${base}/api`, PARLEY_BOT_TOKEN: token },
    stdout: "pipe",
    stderr: "pipe",
  });
  children.push(bot);
  void echo(bot.stdout, "[demo-bot] ");
  void echo(bot.stderr, "[demo-bot] ");
}

const rule = "─".repeat(72);
console.log(
  [
    "",
    rule,
    `  Parley is running: open ${base}/`,
    "  Sign in as  demo  with the password  parley-demo  (set when the demo world was",
    "  created), then say hello in #general. Type / in the composer for DemoBot's commands.",
    token
      ? `  DemoBot (examples/demo-bot.ts, a real discord.js bot) runs beside the server; its token is\n  ${how}`
      : "  DemoBot is not running (no DemoBot in this database).",
    `  Make a bot of your own in the developer portal: ${portal ?? `${base}/developers`}`,
    installLink ? `  (DemoBot's install link, to add it to another server: ${installLink})` : null,
    "  Ctrl-C stops both.",
    rule,
    "",
  ]
    .filter((l) => l !== null)
    .join("\n"),
);

const exited = await server.exited;
await stopAll(exited ?? 0);
