/**
 * Writes docs/compatibility.md from a test run's JUnit report: one row per scenario of
 * test/compat/matrix.ts, one column per library, each cell what the run showed (pass,
 * FAIL), what matrix.ts declares impossible (not supported, with the reason), or "not
 * run" when the report has no test for it. Nothing in the table is typed by hand.
 *
 *   npm run compat:matrix   (= bun scripts/compat-matrix.ts --run)
 *   bun scripts/compat-matrix.ts [--run] [--junit .test-results/junit.xml] [--out docs/compatibility.md]
 *
 * --run first runs the files whose tests are its cells (test/compat/matrix-*.test.ts and
 * fidelity-*.test.ts) through scripts/test.ts, which writes the report; without it, the
 * table is written from the report a run left (a whole `npm test` leaves one too). `npm
 * test` itself never writes the table: a test run leaves tracked files alone. Exits 1
 * when a test failed.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { LIBRARIES, NOT_SUPPORTED, SCENARIOS, type Library, type ScenarioId } from "../test/compat/matrix";
import { EPOCH_SHIMS } from "../test/compat/epoch";

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

/** Where a library needs a second base for avatars, server icons and custom emoji (its CDN), after its snippet. */
const CDN_NOTES: Partial<Record<Library, string>> = {
  "discord.js":
    'For avatars, server icons and custom emoji, give the CDN base too: `rest: { api: "http://127.0.0.1:7420/api", cdn: "http://127.0.0.1:7420" }`, and `displayAvatarURL()`, `iconURL()` and an emoji\'s `imageURL()` point at Parley\'s content paths (`/avatars/{user_id}/{hash}.png`, any of png/webp/jpg/gif: the original image is served; `?size=` is accepted and ignored). Attachments\' `url`s are absolute already (checked: files-discordjs.test.ts).',
  "discord.py":
    'For avatars, server icons and custom emoji, set the CDN base as well: `discord.asset.Asset.BASE = "http://127.0.0.1:7420"`, and `display_avatar.url`, `guild.icon.url` and `Emoji.url` point at Parley (and `Asset.read()` downloads them). `Attachment.read()` needs nothing more: attachments\' `url`s are absolute (checked: files-discordpy.test.ts).',
};

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
# GUILD_CREATE carries every member, so there is nothing to chunk (and op 8 is ignored: see Limits).
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
  applicationId,          // optional: the id interactions carry; the bot user's id (the token's) is taken in its place
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
  "Bad or rotated tokens on the gateway get op 9 (d false) and a plain close, never close 4004 (spec 5.6, 7): a library re-identifies instead of stopping (discord.py after its 5 s pre-IDENTIFY sleep, and again after every op 9), so a bot notices a rotation through REST (401) and stops itself, as the discord.py token-rotation cell does.",
  "Channel objects carry no `created_at` (optional in spec 2.5; the reference leaves it off): seyfert assigns every field onto structures whose `createdAt` is a getter, and threw on every channel it built.",
  "HELLO goes out in its own write, just after the 101: a client that reads only the upgrade response (seyfert's own Node socket) would otherwise never see it. A client that identifies before HELLO arrives still gets HELLO first.",
  "How long a library takes to come back after a server-side close is its own: discord.js, @discordjs/core, oceanic.js, discord.py, eris and discordeno resume at once, detritus-client after its `reconnectDelay` (5 s), seyfert after its `reconnectTimeout` (10 s, not a Client option). After op 9 discordeno and detritus-client wait 1 to 5 s and discord.py 5 s (`before_identify_hook`) before identifying.",
  "discord.py notices a zombied connection by its `heartbeat_timeout` (a Client option, 60 s by default), not by the next heartbeat; the fault rows give it 7 s, above the 5 s it sleeps before re-identifying without reading the socket.",
  "detritus-client sends a ban's reason as the old `?reason=` query parameter, which v10 (and Parley) ignore: the ban lands without it. Under Bun its REST retries (429) fail, since it re-sends a node-fetch Request whose body Bun's node-fetch has consumed; under Node they work, so its rate-limit cells run its REST under Node.",
  "discord.py's own examples (the `examples/` of its repository) run as upstream wrote them, but for one import that points the library at Parley (REST base, gateway, CDN, epoch) and their token and ids (test/compat/bots/examples_py, checked by test/compat/examples-discordpy-*.test.ts and reaction-roles-discordpy.test.ts): basic_bot, background_task, background_task_asyncio, converters, custom_context, deleted, edits, guessing_game, new_member, reaction_roles, reply, secret, app_commands/basic, app_commands/transformers and views/confirm, counter, dropdown, ephemeral, link, persistent (its v2.2.2 copy) and tic_tac_toe. Three meet the limits below: converters.py (op 8), secret.py (VIEW_CHANNEL: its secret channels are made, and their overwrites read 0) and modals/basic.py (501). The rest need a newer discord.py than Debian's 2.2.2 (dynamic_counter, DynamicItem; embed_like, settings, views/layout, modals/label and modals/report, components v2), voice (basic_voice) or asyncpg and extensions it does not ship (advanced_startup).",
  "The discord.js guide's bot (discordjs.guide), written as the guide teaches it (test/compat/bots/guide_js: CommonJS, commands loaded from folders into a Collection, the deploy and delete scripts, an events folder, cooldowns, 32 slash commands and 2 context menus), runs against Parley pointed at it by `rest: { api }` alone, checked by test/compat/guide-discordjs-commands.test.ts and guide-discordjs-community.test.ts. What it meets is the limits above: modals and threads answer 501 (discord.js retries a 501 three times, then raises `HTTPError`, which drops the body's code); a local image sent with a reply answers 400 50035 (a bot cannot upload, spec 1.5); `member.timeout` answers 403 50001 (Moderate Members is not among the 13 bits); `guild.members.fetch()` with no argument rejects with `GuildMembersTimeout` (op 8); user and role selects show greyed out; a follow-up asking for ephemeral is public; `bulkDelete(n, true)` prunes nothing unless the epoch shim is in place; `setDefaultMemberPermissions` keeps only the 13 honoured bits (spec 2.9); `message.forward()` answers 501; `WebhookClient({ url })` cannot parse a webhook URL that is not the reference's (build it from id and token).",
  "The two most used discord.js frameworks run against Parley as their templates lay a bot out: @sapphire/framework 5 with @sapphire/plugin-subcommands (test/compat/bots/sapphire_js, checked by test/compat/framework-sapphire.test.ts) and discordx 11 (test/compat/bots/discordx_js, run by Bun from TypeScript, checked by framework-discordx.test.ts). Each registry compares what it would register with what is stored and finds nothing to change on a restart (discordx: nothing put; Sapphire edits the commands that declare no `integration_types` against the stored default `[0]`, as it does on the reference, and creates nothing again). What they meet is the limits above: Sapphire runs a message command only when discord.js computes View Channel and Send Messages for the bot in the channel, and View Channel reads 0 (spec 2.9), so its prefix commands answer only a bot with Administrator; its slash commands are not affected.",
  "A discord.py 2.x bot laid out as most hobby bots are (test/compat/bots/typical_py: a `commands.Bot` subclass whose `setup_hook` loads cogs as extensions, adds a persistent view and syncs the tree to its server; prefix commands with converters, checks, a cooldown and `on_command_error`; hybrid commands and a hybrid group; app commands with `describe`, `choices`, `Range`, a Transformer, a Group subclass, `default_permissions`, the tree's `on_error`, deferrals and a context menu; views with `interaction_check` and `on_timeout`; `wait_for`; a task loop; listeners) runs against Parley, checked by test/compat/typical-discordpy-commands.test.ts, typical-discordpy-interactions.test.ts and typical-discordpy-server.test.ts. What it meets is the limits above: a `Greedy[Member]` followed by a word no cached member bears answers 30 s late (op 8); a command sent in a DM is never seen (its content is withheld, spec 6); `has_permissions` for a channel permission passes only the owner and administrators (VIEW_CHANNEL reads 0); uploads (`discord.File`) answer 400 50035, invites from a bot 403, threads 501, modals 501; `on_member_ban` and `on_bulk_message_delete` never run (spec 7 never dispatches their events; a purge comes as one MESSAGE_DELETE a message, so `on_message_delete` sees each).",
  "discordeno budgets gateway sends as 120 a minute minus two per heartbeat, so a heartbeat_interval of 1 s leaves it none and it spins; a test server's interval should be 1.5 s or more. Its 4014 is thrown from its socket's close handler, uncaught.",
];

/** Why the epoch matters and how the shims are tested; each library's shim follows its config snippet. */
const EPOCH_PROSE = [
  "Parley's snowflakes count milliseconds from 2025-01-01 (1735689600000; spec 2.1 and 9.4). Every library here reads an id's time with the reference platform's epoch, 2015-01-01 (1420070400000), so each creation time it derives from an id (`createdAt`, `createdTimestamp`, discord.py's `created_at`) is 3653 days early, and whatever compares that time with the clock goes wrong with it:",
  "",
  "- discord.py: `Interaction.is_expired()` is true on every interaction, so a hybrid command answers with a channel message and never acknowledges its interaction (the person sees the command fail);",
  "- detritus-client: `interaction.deleted` is true on every fresh interaction, and reading it drops the interaction from the client's cache;",
  "- discord.js: `channel.bulkDelete(messages, true)` takes every message for older than 14 days and deletes none;",
  "- discordeno: `message.timestamp` is read from the id, not from the payload, so it is ten years early too.",
  "",
  "Timestamps the API sends as fields (`timestamp`, `edited_timestamp`, `joined_at`) are right. Parley keeps the spec's epoch; one line per library, run once at start-up before the client connects (some libraries compute a time when an object is built), makes it read ids right. Each library's section below shows its line and what it covers. The `epoch` row of the matrix runs exactly that line (the text shown here is the text the test executes) and compares a message's and an interaction's creation time, as the library computes it, with the server's; the `epoch-unshimmed` row checks the breakage above, so a library that changes either way shows up.",
];

/**
 * The spec's limits real bots run into, each with the symptom a bot's author sees and
 * what to do instead, and how it was verified.
 */
const LIMITS = [
  "**Request Guild Members (op 8) is ignored** (spec 6.1), so whatever waits for member chunks waits for nothing. GUILD_CREATE carries every member of the server, so a bot with GUILD_MEMBERS has them all cached from the start, kept current by GUILD_MEMBER_* events, and a library's start-up chunking has nothing to wait for (discord.py finds its guilds already chunked). Asking the gateway for members is what hangs: discord.js's `guild.members.fetch()` with no argument, with several ids or with `query` rejects after its `time` option (120 s by default) with `GuildMembersTimeout` \"Members didn't arrive in time.\" (checked: test/compat/limits.test.ts); discord.py's `guild.chunk()` never returns, `guild.query_members()` raises `asyncio.TimeoutError` after 30 s, and so does the `discord.Member` converter of a prefix command for a member it has not cached: the command fails with `ConversionError` 30 s later and the log says \"Timed out waiting for chunks\" (checked with discord.py's own converters.py example, whose `Union[Member, TextChannel]` goes on to the channel 30 s later and whose custom converter fails: test/compat/examples-discordpy-messages.test.ts). Without GUILD_MEMBERS discord.py caches no member but the bot itself, so every `!command <name or id>` meets it; a mention does not, since the mentions of MESSAGE_CREATE and MESSAGE_UPDATE carry their `member`, as the reference's do, and the converter takes the Member from the message (discord.py's secret.py example: test/compat/examples-discordpy-messages.test.ts). What to do: ask an administrator to approve GUILD_MEMBERS; fetch one member over REST (`guild.members.fetch(id)`, discord.py `guild.fetch_member(id)`, which work without the intent); list members over REST with the intent (`guild.members.list({ limit: 1000 })`, discord.py `guild.fetch_members()`; without it `GET /guilds/{id}/members` answers 403 50001 and discord.py refuses at once with `ClientException`).",
  "**VIEW_CHANNEL is not a permission here** (spec 2.9: 13 bits are honoured, VIEW_CHANNEL is not one of them), so private channels are not private: every member of a server sees every one of its channels and its messages, and bots get their events. An overwrite that denies VIEW_CHANNEL is accepted and the bit dropped: it reads back as 0 (checked: limits.test.ts). Ticket and staff-channel bots that hide a channel from @everyone hide nothing. What to do: keep private exchanges out of server channels (an ephemeral interaction response reaches one person; a DM, its two recipients); deny SEND_MESSAGES, which is honoured, to make a channel read-only.",
  "**MODERATE_MEMBERS is never granted** (spec 2.9), so a timeout (`communication_disabled_until` on `PATCH /guilds/{id}/members/{user}`) answers 403 with code 50001 (not the reference's 50013): discord.js's `member.timeout()` rejects with `DiscordAPIError[50001]` and `member.moderatable` is false (checked: limits.test.ts); discord.py's `member.timeout()` raises `Forbidden` (403, 50001; seen with discord.py 2.2.2). What to do: mute with a role that channel overwrites deny SEND_MESSAGES, or kick.",
  "**Permissions carry only the 13 honoured bits** (spec 2.9): a role's `permissions`, overwrites and an interaction's `member.permissions` and `app_permissions` read every other bit as 0 (EMBED_LINKS, ADD_REACTIONS, READ_MESSAGE_HISTORY, VIEW_CHANNEL among them), though Parley never asks for those either. A library's own check of such a bit fails: in discord.js `permissions.has(PermissionFlagsBits.EmbedLinks)` is false, and `channel.viewable`, `message.editable` and `message.deletable` are false because they want ViewChannel, while the edit or delete itself works (checked: limits.test.ts). discord.py's `channel.permissions_for(member)` takes the missing VIEW_CHANNEL for \"cannot see the channel\" and clears every channel permission (`send_messages`, `manage_messages`, `embed_links`...) for everyone but the owner and administrators, so `@commands.bot_has_permissions(...)` and `@commands.has_permissions(...)` fail with `BotMissingPermissions` and `MissingPermissions` (checked: test/compat/fidelity-discordpy.test.ts). What to do: check only the 13 honoured bits, and read them server-wide (discord.py `member.guild_permissions`, discord.js `member.permissions`) or from the interaction (`interaction.permissions`, `app_permissions`, which the server computes); or just try, and handle the 403.",
  "**Modals answer 501** (spec 1.5: no modals, no autocomplete): an interaction callback of type 9 is refused with status 501 and code 50035. discord.py sends interaction responses through its webhook adapter, which retries every 5xx after 1, 3, 5, 7 and 9 s: `interaction.response.send_modal()` raises `DiscordServerError` about 25 s later, and all that time the person waits for an answer (discord.py's own modals/basic.py example meets it; its first tries are checked in test/compat/examples-discordpy-interactions.test.ts, the whole 25 s is not). discord.js retries a 5xx at once, 3 times, and `showModal()` rejects with `HTTPError` 501 within milliseconds (checked: limits.test.ts). What to do: take input as slash command options, or ask in the channel and read the reply.",
  "**Messages say `bot: false`** (spec 2.7: a message's `author` has `bot: false`, the bot's own messages included), so `author.bot` tells no bot apart. A discord.js bot that ignores bots by `message.author.bot` answers its own messages, and a trigger that its own reply matches loops: each reply sets off the next, held to the rate limit (5 messages per 5 s a channel) but never stopped by it (checked: limits.test.ts). discord.py takes its own messages' author from its cache, where the bot user has `bot` set, so there it is other bots that get through: `commands.Bot` skips only authors with `bot` set and runs the commands another bot's messages carry, so two bots can set each other off the same way (checked: fidelity-discordpy.test.ts). What to do: compare ids, the author's with the bot's own (`message.author.id === client.user.id`, discord.py `message.author == bot.user`) and with the bots you expect, and word replies so they match none of the bot's triggers.",
  '**`PATCH /channels/{id}` allows 2 edits per 10 minutes a channel** (spec 8.1). discord.py waits out a bucket inside the call that spends it (http.py: the request that leaves `X-RateLimit-Remaining: 0` sleeps its `reset_after` before it returns), so the second `channel.edit()` of a channel within 10 minutes returns about 600 s later, and an interaction whose handler edits a channel twice before it answers goes unanswered for those 10 minutes: the person sees "…: The application did not respond" after 3 s (read in discord.py 2.2.2\'s http.py; not in the suite: it takes 600 s). What to do: one `channel.edit(name=..., topic=...)` for several changes; answer or `defer()` the interaction before editing; give the client `max_ratelimit_timeout=30` (a `Client` option), so the edit that spends the bucket returns at once and the next one within the window raises `discord.RateLimited` with `retry_after` about 600 (checked: fidelity-discordpy.test.ts).',
  '**Only `/api/v10` is served** (spec 9.1): a path under another version is outside every API and answers 404 `{code: 0}`, so discord.js\'s `new REST({ version: "9" })` (or `rest: { version: "9" }` on a `Client`) rejects every call with `DiscordAPIError[0]: 404: Not Found`, `client.login()` included, since it asks `GET /gateway/bot` first (checked: limits.test.ts). What to do: leave the version at 10, the libraries\' default, and give the REST base as the snippets above do.',
  "**The application id is not the bot user's id** (spec 1), while a token's first part is the bot user's id. On the reference the two are one id, so bots and tutorials register commands under `client.user.id`, and discordeno and seyfert take the application id from the token unless told otherwise. Parley takes the bot's own user id in place of its application's in the command routes and the interaction webhooks (checked: limits.test.ts registers discordeno's commands with no `applicationId`); another bot's id is still 403 50001. The commands and interactions it answers carry the application's own id, so code that compares `interaction.applicationId` with the bot user's id sees two ids: give discordeno and seyfert `applicationId`, as the snippets above do. discord.js, oceanic.js, eris and discord.py read it from READY or `GET /oauth2/applications/@me`.",
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
      if (cell?.outcome === "fail") return (n.fail++, "**FAIL**");
      if (cell?.outcome === "pass" && !cell.declined) return (n.pass++, "pass");
      if (reason) return (n.unsupported++, `not supported [${noteOf(reason)}]`);
      return (n.notRun++, "not run");
    });
    rows.push(`| \`${id}\` | ${what} | ${cols.join(" | ")} |`);
  }

  const commit = run.commit ? `commit \`${run.commit}\`${run.dirty ? " (with uncommitted changes)" : ""}` : "an unknown commit";
  const out: string[] = [
    "# Compatibility matrix",
    "",
    `<!-- GENERATED by scripts/compat-matrix.ts from ${run.source}; do not edit by hand: run \`npm run compat:matrix\`. -->`,
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
  out.push("## The snowflake epoch", "", ...EPOCH_PROSE, "");
  out.push("## Pointing each library at Parley", "");
  for (const lib of LIBRARIES) {
    const shim = EPOCH_SHIMS[lib];
    out.push(`### ${lib}`, "", "```" + CONFIG_SNIPPETS[lib].lang, CONFIG_SNIPPETS[lib].code, "```", "");
    const cdn = CDN_NOTES[lib];
    if (cdn) out.push(cdn, "");
    out.push(
      "The epoch shim (the `epoch` row runs this line):",
      "",
      "```" + shim.lang,
      shim.imports,
      shim.code,
      "```",
      "",
      shim.covers,
      "",
    );
  }
  out.push("## Limits a bot will meet", "");
  out.push(
    'What the spec leaves out, as a bot\'s author meets it: the symptom, and what to do instead. "Checked" names the test that shows the symptom with the real library on every run.',
    "",
  );
  for (const l of LIMITS) out.push(`- ${l}`);
  out.push("");
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

/** The files with the matrix's cells, each in its own process under its deadline; their report is .test-results/junit.xml. */
function runMatrixTests(): number {
  const run = Bun.spawnSync([process.execPath, join(ROOT, "scripts/test.ts"), "test/compat/matrix-", "test/compat/fidelity-"], {
    cwd: ROOT,
    stdio: ["inherit", "inherit", "inherit"],
  });
  return run.exitCode ?? 1;
}

if (import.meta.main) {
  const tests = process.argv.includes("--run") ? runMatrixTests() : 0;
  const junit = resolve(ROOT, arg("--junit", ".test-results/junit.xml"));
  const outFile = resolve(ROOT, arg("--out", "docs/compatibility.md"));
  if (!existsSync(junit)) {
    console.error(`compat-matrix: no JUnit report at ${junit}; run the tests first (npm run compat:matrix runs them)`);
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
  process.exit(tests === 0 ? 0 : 1);
}
