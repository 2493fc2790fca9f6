/**
 * Writes docs/compatibility.md from a test run's JUnit report: one row per scenario of
 * test/compat/matrix.ts, one column per library, each cell what the run showed (pass,
 * FAIL), what matrix.ts declares impossible (not supported, with the reason), or "not
 * run" when the report has no test for it. Nothing in the table is typed by hand.
 *
 *   bun scripts/compat-matrix.ts [--junit .test-results/junit.xml] [--out docs/compatibility.md]
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { LIBRARIES, NOT_SUPPORTED, SCENARIOS, type Library, type ScenarioId } from "../test/compat/matrix";

const ROOT = resolve(import.meta.dir, "..");

export type Outcome = "pass" | "fail" | "skipped";
export interface Cell {
  outcome: Outcome;
  tests: string[];
  /** The tests are of what the library does instead (matrix.ts declined()). */
  declined?: boolean;
}

export interface TestCase {
  name: string;
  failed: boolean;
  skipped: boolean;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === "#") return String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? all;
  });
}

/** Every <testcase> of a JUnit report (bun nests describe() blocks as <testsuite>s). */
export function parseJUnit(xml: string): TestCase[] {
  const out: TestCase[] = [];
  const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (let m; (m = re.exec(xml)); ) {
    const name = /\bname="([^"]*)"/.exec(m[1]);
    if (!name) continue;
    const body = m[3] ?? "";
    out.push({ name: unescapeXml(name[1]), failed: /<(failure|error)\b/.test(body), skipped: /<skipped\b/.test(body) });
  }
  return out;
}

/**
 * "<library> › <scenario id>: <what>" (matrix.ts's scenario()) -> its cell, or null;
 * "<library> › <scenario id> (not supported): <what>" (declined()) -> its cell, declined.
 */
export function cellOf(name: string): { lib: Library; id: ScenarioId; declined: boolean } | null {
  for (const lib of LIBRARIES) {
    const at = name.indexOf(`${lib} › `);
    if (at !== 0) continue;
    const m = /^([a-z0-9-]+)( \(not supported\))?:/.exec(name.slice(lib.length + 3));
    if (m && m[1] in SCENARIOS) return { lib, id: m[1] as ScenarioId, declined: m[2] !== undefined };
  }
  return null;
}

export function collect(cases: TestCase[]): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  for (const c of cases) {
    const at = cellOf(c.name);
    if (!at) continue;
    const key = `${at.lib}\u0000${at.id}`;
    const cell: Cell = cells.get(key) ?? { outcome: "skipped" as Outcome, tests: [] };
    cell.tests.push(c.name);
    if (at.declined) cell.declined = true;
    // One failing test fails the cell; a skipped test alone shows nothing ran.
    if (c.failed) cell.outcome = "fail";
    else if (!c.skipped && cell.outcome === "skipped") cell.outcome = "pass";
    cells.set(key, cell);
  }
  return cells;
}

const CONFIG_SNIPPETS: Record<Library, { lang: string; code: string }> = {
  "discord.js": {
    lang: "js",
    code: `// discord.js 14: REST root only; the gateway URL comes from GET /gateway/bot.
const client = new Client({ intents: [...], rest: { api: "http://127.0.0.1:7420/api" } });
await client.login(token);`,
  },
  "@discordjs/core": {
    lang: "js",
    code: `// @discordjs/core 2 over @discordjs/rest and @discordjs/ws.
const rest = new REST({ api: "http://127.0.0.1:7420/api" }).setToken(token);
const gateway = new WebSocketManager({ token, intents, rest }); // reads GET /gateway/bot through rest
const client = new Client({ rest, gateway });
await gateway.connect();`,
  },
  "oceanic.js": {
    lang: "js",
    code: `// oceanic.js 1: REST base including the version; the gateway URL comes from GET /gateway/bot.
const client = new Client({
  auth: "Bot " + token,
  rest: { baseURL: "http://127.0.0.1:7420/api/v10" },
  gateway: { intents: [...] },
});
await client.connect();`,
  },
  "discord.py": {
    lang: "python",
    code: `# discord.py 2.x: set both class attributes before the client starts.
import discord, yarl
discord.http.Route.BASE = "http://127.0.0.1:7420/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws://127.0.0.1:7420/gateway")
# Parley ignores REQUEST_GUILD_MEMBERS and sends every member in GUILD_CREATE:
bot = commands.Bot(command_prefix="!", intents=intents, chunk_guilds_at_startup=False)`,
  },
  eris: {
    lang: "js",
    code: `// eris 0.18: REST is https.request({ host: rest.domain, path: rest.baseURL + route }), TLS on 443
// only; for a plain-http Parley, an https.Agent whose sockets are plain TCP (eris's \`agent\` option).
// The gateway URL comes from GET /gateway/bot.
class PlainAgent extends https.Agent {
  createConnection(_o, cb) { const s = net.connect(7420, "127.0.0.1"); s.once("connect", () => cb?.(null, s)); return s; }
}
const bot = new Eris.Client("Bot " + token, {
  intents, rest: { domain: "127.0.0.1:7420", baseURL: "/api/v10", agent: new PlainAgent() },
});
bot.connect();`,
  },
  discordeno: {
    lang: "js",
    code: `// discordeno 21: the proxy base gets /v10 appended; the gateway URL comes from GET /gateway/bot.
const bot = createBot({
  token, intents, desiredProperties,
  applicationId,          // Parley's application id is not the bot user id the token carries
  rest: { token, applicationId, proxy: { baseUrl: "http://127.0.0.1:7420/api" } },
  events: { ... },
});
bot.rest.isProxied = false; // any base but discord.com counts as a REST proxy: no rate-limit handling
await bot.start();`,
  },
  seyfert: {
    lang: "js",
    code: `// seyfert 5: request URL = \`\${domain}/\${baseUrl}\${route}\`; the gateway URL comes from GET /gateway/bot.
const client = new Client({ getRC: () => ({ token, intents, applicationId, locations: { base: "." } }) });
client.setServices({ rest: new ApiHandler({ token, domain: "http://127.0.0.1:7420", baseUrl: "api/v10" }) });
await client.start();
// Under Bun seyfert uses the native WebSocket. Under Node its own socket always speaks TLS on 443,
// so a plain-http Parley needs https.globalAgent.createConnection pointed at it (as eris's agent).`,
  },
  "detritus-client": {
    lang: "js",
    code: `// detritus-client 0.16 (API v9, unmaintained since 2021): REST base and no zlib (Parley sends JSON text).
const client = new ShardClient(token, {
  isBot: true,
  rest: { baseUrl: "http://127.0.0.1:7420/api/v10" },
  gateway: { compress: false, intents },
  cache: { applications: { enabled: false } }, // else READY asks GET /applications/detectable (501)
});
await client.run(); // the gateway URL comes from GET /gateway`,
  },
};

const NOTES = [
  "Snowflake timestamps: Parley's snowflake epoch is 2025-01-01 (spec 2.1); the libraries decode ids with the reference platform's 2015 epoch, so a timestamp derived from an id (discord.py `Message.created_at`, discord.js `createdTimestamp`) is ten years early. Timestamps the API sends as fields (`timestamp`, `edited_timestamp`) are right.",
  "Bad or rotated tokens on the gateway get op 9 (d false) and a plain close, never close 4004 (spec 5.6, 7): a library re-identifies instead of stopping (discord.py after its 5 s pre-IDENTIFY sleep, and again after every op 9), so a bot notices a rotation through REST (401) and stops itself, as the discord.py token-rotation cell does.",
  "A bot is never recognised by `author.bot`: Parley reports `bot: false` on message authors (README); compare ids.",
  "Application id and bot user id differ on Parley (spec 1), while the token's first part is the bot user's id. discordeno and seyfert take the application id from the token until told otherwise: give them `applicationId`. eris and discord.js read it from READY.",
  "Channel objects carry no `created_at` (optional in spec 2.5; the reference leaves it off): seyfert assigns every field onto structures whose `createdAt` is a getter, and threw on every channel it built.",
  "HELLO goes out in its own write, just after the 101: a client that reads only the upgrade response (seyfert's own Node socket) would otherwise never see it. A client that identifies before HELLO arrives still gets HELLO first.",
  "How long a library takes to come back after a server-side close is its own: discord.js, @discordjs/core, oceanic.js, discord.py, eris and discordeno resume at once, detritus-client after its `reconnectDelay` (5 s), seyfert after its `reconnectTimeout` (10 s, not a Client option). After op 9 discordeno and detritus-client wait 1 to 5 s and discord.py 5 s (`before_identify_hook`) before identifying.",
  "discord.py notices a zombied connection by its `heartbeat_timeout` (a Client option, 60 s by default), not by the next heartbeat; the fault rows give it 7 s, above the 5 s it sleeps before re-identifying without reading the socket.",
  "detritus-client sends a ban's reason as the old `?reason=` query parameter, which v10 (and Parley) ignore: the ban lands without it. Under Bun its REST retries (429) fail, since it re-sends a node-fetch Request whose body Bun's node-fetch has consumed; under Node they work, so its rate-limit cells run its REST under Node.",
  "discordeno budgets gateway sends as 120 a minute minus two per heartbeat, so a heartbeat_interval of 1 s leaves it none and it spins; a test server's interval should be 1.5 s or more. Its 4014 is thrown from its socket's close handler, uncaught.",
];

export interface RunInfo {
  date: string;
  commit: string | null;
  dirty: boolean;
  source: string;
}

export function render(cells: Map<string, Cell>, run: RunInfo): string {
  const notes: string[] = [];
  const noteOf = (reason: string) => {
    let i = notes.indexOf(reason);
    if (i < 0) i = notes.push(reason) - 1;
    return i + 1;
  };
  const counts = new Map<Library, { pass: number; fail: number; unsupported: number; notRun: number }>();
  for (const lib of LIBRARIES) counts.set(lib, { pass: 0, fail: 0, unsupported: 0, notRun: 0 });

  const rows: string[] = [];
  for (const [id, what] of Object.entries(SCENARIOS) as [ScenarioId, string][]) {
    const cols = LIBRARIES.map((lib) => {
      const n = counts.get(lib)!;
      const cell = cells.get(`${lib}\u0000${id}`);
      const reason = NOT_SUPPORTED[lib]?.[id];
      if (cell?.outcome === "fail") return n.fail++, "**FAIL**";
      if (cell?.outcome === "pass" && !cell.declined) return n.pass++, "pass";
      if (reason) return n.unsupported++, `not supported [${noteOf(reason)}]`;
      return n.notRun++, "not run";
    });
    rows.push(`| \`${id}\` | ${what} | ${cols.join(" | ")} |`);
  }

  const commit = run.commit ? `commit \`${run.commit}\`${run.dirty ? " (with uncommitted changes)" : ""}` : "an unknown commit";
  const out: string[] = [
    "# Compatibility matrix",
    "",
    `<!-- GENERATED by scripts/compat-matrix.ts from ${run.source}; do not edit by hand: run \`npm test\`. -->`,
    "",
    `Generated by \`scripts/compat-matrix.ts\` from the JUnit report of the test run of ${run.date} at ${commit}.`,
    "Each cell is one test in `test/compat/matrix-*.test.ts`: a real bot written with that library, run",
    "against a real Parley on a free port and driven through the test harness. `not run` means the run",
    "had no such test (a partial run, or a cell nobody has written yet); `not supported` cells are",
    "declared, with their reason, in `test/compat/matrix.ts`, and a test checks that the library does",
    "what the reason says (it shows FAIL otherwise). The `fault-*` rows break things on purpose through",
    "the harness's faults (`docs/harness.md`), on a server whose heartbeat_interval is 1.5 s",
    "(`--heartbeat-interval`, test mode only), so a library notices a zombied connection within seconds.",
    "",
    `| scenario | what it shows | ${LIBRARIES.join(" | ")} |`,
    `|---|---|${LIBRARIES.map(() => "---").join("|")}|`,
    ...rows,
    `| | **total** | ${LIBRARIES.map((lib) => {
      const n = counts.get(lib)!;
      return `${n.pass} pass, ${n.fail} fail, ${n.unsupported} not supported, ${n.notRun} not run`;
    }).join(" | ")} |`,
    "",
  ];
  if (notes.length) {
    out.push("Not supported:", "");
    notes.forEach((r, i) => out.push(`${i + 1}. ${r}`));
    out.push("");
  }
  out.push("## Pointing each library at Parley", "");
  for (const lib of LIBRARIES) out.push(`### ${lib}`, "", "```" + CONFIG_SNIPPETS[lib].lang, CONFIG_SNIPPETS[lib].code, "```", "");
  out.push("## Notes for every library", "");
  for (const n of NOTES) out.push(`- ${n}`);
  out.push("");
  return out.join("\n");
}

function git(args: string[]): string | null {
  const r = Bun.spawnSync(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : null;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

if (import.meta.main) {
  const junit = resolve(ROOT, arg("--junit", ".test-results/junit.xml"));
  const outFile = resolve(ROOT, arg("--out", "docs/compatibility.md"));
  if (!existsSync(junit)) {
    console.error(`compat-matrix: no JUnit report at ${junit}; run the tests first (npm test)`);
    process.exit(1);
  }
  const cells = collect(parseJUnit(readFileSync(junit, "utf8")));
  const status = git(["status", "--porcelain", "--untracked-files=no"]);
  const md = render(cells, {
    date: statSync(junit).mtime.toISOString(),
    commit: git(["rev-parse", "--short", "HEAD"]),
    // The matrix itself is rewritten by every run; that alone is not a change.
    dirty: !!status && status.split("\n").some((l) => !l.endsWith("docs/compatibility.md")),
    source: join(".", junit.startsWith(ROOT) ? junit.slice(ROOT.length + 1) : junit),
  });
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, md);
  const failed = [...cells.values()].filter((c) => c.outcome === "fail").length;
  console.log(`compat-matrix: wrote ${outFile.slice(ROOT.length + 1)} (${cells.size} cells from the run, ${failed} failing)`);
}
