/**
 * The discord.py column of the compatibility matrix: real discord.py 2.2 bots (Debian's
 * python3-discord, child processes of /usr/bin/python3) against a real Parley on a free
 * port, driven through the harness the way a bot's own CI would: people say things,
 * react, type, DM, run slash commands and click components, and the test reads what the
 * bot did back through the harness and the server's state.
 *
 * discord.py waits 2 s after the last GUILD_CREATE before on_ready, so the bots start
 * together in beforeAll and one long-lived bot (py_matrix_bot.py) serves most cells in
 * sequence, printing a JSON line per event and per finished step. The rate-limit and
 * 501 cells use a REST-only client (no READY to wait for) against a second server
 * started with small rate-limit windows, so a 429's retry takes about a second.
 */
import { afterAll, beforeAll, expect } from "bun:test";
import type { Parley } from "../../src/app";
import { SPEC_RATE_LIMITS } from "../../src/config";
import { startParley, type RunningParley } from "../../src/testing";
import { call, client, internalId, recordEvents, refusal, serverOf } from "../helpers";
import { scenario } from "./matrix";
import { PyBot, requireDiscordPy } from "./support";
import { faultCells } from "./fault-cells";
import { EPOCH_SHIMS, expectLibraryTime, expectServerTime, serverTimestamp } from "./epoch";
import { PERMISSIONS } from "../../src/core/permissions";

const WAIT_MS = 12_000;

const WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }, { name: "dave" }, { name: "erin" }],
  guilds: [
    {
      name: "Lab",
      owner: "alice",
      members: ["bob", "carol", "dave", "erin"],
      roles: [
        { name: "Helper", permissions: [] },
        {
          name: "BotRole",
          permissions: [
            "MANAGE_CHANNELS",
            "MANAGE_ROLES",
            "KICK_MEMBERS",
            "BAN_MEMBERS",
            "VIEW_AUDIT_LOG",
            "MANAGE_MESSAGES",
            "SEND_MESSAGES",
          ],
          members: ["MatrixBot"],
        },
      ],
      channels: [{ name: "general" }, { name: "staff" }],
    },
    // MatrixBot is installed here while connected (the join-after-ready cell).
    { name: "Annex", owner: "alice", members: ["bob"], channels: [{ name: "lobby" }] },
  ],
  applications: [
    {
      name: "MatrixBot",
      owner: "alice",
      intents: [
        "GUILDS",
        "GUILD_MEMBERS",
        "GUILD_MESSAGES",
        "MESSAGE_CONTENT",
        "GUILD_MESSAGE_REACTIONS",
        "GUILD_MESSAGE_TYPING",
        "DIRECT_MESSAGES",
      ],
      approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
      install: ["Lab"],
    },
    { name: "PlainBot", owner: "alice", intents: ["GUILDS", "GUILD_MESSAGES"], install: ["Lab"] },
  ],
};

// Small windows so a 429 costs about a second; everything else keeps the spec's shape.
const SMALL_LIMITS = {
  ...SPEC_RATE_LIMITS,
  global: { limit: 8, windowMs: 1500 },
  routes: { ...SPEC_RATE_LIMITS.routes, "POST /channels/{channel_id}/messages": { limit: 2, windowMs: 1500 } },
};
const LIMITS_WORLD = {
  users: [{ name: "alice" }],
  guilds: [{ name: "Lab", owner: "alice", channels: [{ name: "general" }, { name: "staff" }] }],
  applications: [
    { name: "RestBot", owner: "alice", intents: ["GUILDS"], install: ["Lab"] },
    { name: "OtherBot", owner: "alice", intents: ["GUILDS"], install: ["Lab"] },
  ],
};

const bots: PyBot[] = [];
function spawnBot(script: string, args: string[]): PyBot {
  const b = PyBot.start(script, args, WAIT_MS);
  bots.push(b);
  return b;
}

let P: RunningParley; // the main server, rate limits off (these cells are not about them)
let p: Parley;
let L: RunningParley; // the small-window server for the 429 cells
let main: PyBot;
let plain: PyBot;
let greedy: PyBot;
let rest: PyBot;

let restReady: Promise<unknown> | undefined;
const restUp = () => (restReady ??= rest.event("ready"));
const W = () => P.world;
const general = () => W().guilds.Lab.channels.general;
const botUser = () => W().applications.MatrixBot.bot_user_id;
const flake = (uuid: string) => p.api.flakes.of(uuid);

beforeAll(async () => {
  requireDiscordPy();
  P = await startParley({ world: WORLD, config: { rateLimits: { ...SPEC_RATE_LIMITS, enabled: false } } });
  p = serverOf(P);
  L = await startParley({ world: LIMITS_WORLD, config: { rateLimits: SMALL_LIMITS } });
  const gw = P.gatewayUrl;
  main = spawnBot("py_matrix_bot.py", [P.baseUrl, gw, P.tokenOf("MatrixBot"), W().guilds.Lab.id, EPOCH_SHIMS["discord.py"].code]);
  plain = spawnBot("py_matrix_plain.py", [P.baseUrl, gw, P.tokenOf("PlainBot"), "plain"]);
  greedy = spawnBot("py_matrix_plain.py", [P.baseUrl, gw, P.tokenOf("PlainBot"), "greedy"]);
  rest = spawnBot("py_matrix_rest.py", [
    L.baseUrl,
    L.tokenOf("RestBot"),
    L.world.guilds.Lab.channels.general,
    L.world.guilds.Lab.channels.staff,
  ]);
});

afterAll(async () => {
  for (const b of bots) await b.stop();
  await P?.stop();
  await L?.stop();
});

scenario(
  "discord.py",
  "login",
  "on_ready with the guild, its channels, roles and members cached; guild commands synced",
  async () => {
    expect(await main.event("synced")).toEqual({ event: "synced", commands: ["edit", "ping", "secret", "slow", "when"] });
    const ready = await main.event("ready");
    expect(ready).toEqual({
      event: "ready",
      session: expect.any(String),
      user: botUser(),
      bot: true,
      guilds: [W().guilds.Lab.id],
      guild: {
        name: "Lab",
        unavailable: false,
        channels: ["general", "staff"],
        roles: ["@everyone", "BotRole", "Helper"],
        members: ["MatrixBot", "PlainBot", "alice", "bob", "carol", "dave", "erin"],
        me_roles: ["@everyone", "BotRole"],
      },
    });
    expect(p.gateway.sessionsOf(internalId(p, W().applications.MatrixBot.id))).toEqual([
      expect.objectContaining({ session_id: ready.session, connected: true }),
    ]);
    // Client.application_info() (GET /oauth2/applications/@me), as bots call it at start-up.
    expect(await main.event("app")).toEqual({
      event: "app",
      id: W().applications.MatrixBot.id,
      name: "MatrixBot",
      owner: W().users.alice.id,
    });
  },
  90_000,
);

scenario(
  "discord.py",
  "join-after-ready",
  "installed into another server while connected: on_guild_join runs (it posts a welcome), on_guild_available does not",
  async () => {
    // Once on_ready has run, this GUILD_CREATE is a join, not part of start-up.
    await main.saw((l) => l.event === "ready", "on_ready");
    const annex = W().guilds.Annex;
    const app = internalId(p, W().applications.MatrixBot.id);
    const alice = W().users.alice.token;
    // The portal's install, as the server's owner does it from the bot's install link.
    expect((await client(p, "POST", `/applications/${app}/install`, alice, { guild_id: internalId(p, annex.id) })).status).toBe(204);
    const joined = await main.event("guild_join", (l) => l.id === annex.id);
    expect(joined).toEqual({
      event: "guild_join",
      id: annex.id,
      name: "Annex",
      unavailable: false,
      channels: ["lobby"],
      members: ["MatrixBot", "alice", "bob"],
      welcome: expect.any(String),
    });
    const welcome = await P.waitForMessage(annex.channels.lobby, (m) => m.id === joined.welcome);
    expect(welcome).toMatchObject({ content: "Hello Annex, thanks for having me.", author: { id: botUser() } });
    // Only the server listed in READY was "available"; the join was not taken for one.
    expect(main.lines.filter((l) => l.event === "guild_available").map((l) => l.id)).toEqual([W().guilds.Lab.id]);
    // Leave the other cells the one server they expect.
    expect((await client(p, "DELETE", `/applications/${app}/guilds/${internalId(p, annex.id)}`, alice)).status).toBe(204);
    await main.event("guild_remove", (l) => l.id === annex.id);
  },
);

scenario(
  "discord.py",
  "message-content",
  "on_message, on_message_edit, on_message_delete with content; a prefix command replies",
  async () => {
    const bob = P.as("bob");
    const { id } = await bob.say("general", "hello matrix");
    expect(await main.event("message", (l) => l.id === id)).toMatchObject({
      content: "hello matrix",
      author: W().users.bob.id,
      guild: W().guilds.Lab.id,
      dm: false,
    });

    const bobToken = W().users.bob.token;
    const ch = internalId(p, general());
    const edited = await client(p, "PATCH", `/channels/${ch}/messages/${internalId(p, id)}`, bobToken, {
      content: "hello matrix (edited)",
    });
    expect(edited.status).toBe(200);
    expect(await main.event("edit", (l) => l.id === id)).toEqual({
      event: "edit",
      id,
      before: "hello matrix",
      after: "hello matrix (edited)",
      edited: true,
    });
    expect((await client(p, "DELETE", `/channels/${ch}/messages/${internalId(p, id)}`, bobToken)).status).toBe(204);
    expect(await main.event("delete", (l) => l.id === id)).toEqual({ event: "delete", id, content: "hello matrix (edited)" });

    const ev = recordEvents(p);
    const cmd = await bob.say("general", "!echo ping pong");
    const done = await main.scenario("message-content", (l) => l.step === "echo");
    expect(done.asked).toBe("!echo ping pong");
    // ctx.reply: a REPLY (type 19) that references the command.
    expect(done.type).toBe(19);
    expect(done.ref).toBe(cmd.id);
    const reply = await P.waitForMessage("general", (m) => m.id === done.sent);
    expect(reply).toMatchObject({ content: "ping pong", author: { id: botUser() }, message_reference: { message_id: cmd.id } });
    expect(BigInt(reply.id) > BigInt(cmd.id)).toBe(true);
    expect(ev.all.map((e) => e.type)).toEqual(["message.created", "message.created"]);

    // The bot deletes its own reply; no scenario is about refusals, so this cell also shows
    // a message over 2000 characters raised as HTTPException 400/50035, with no event.
    ev.clear();
    await bob.say("general", `!tidy ${done.sent}`);
    const tidy = await main.scenario("message-content", (l) => l.step === "tidy");
    ev.stop();
    expect(tidy).toMatchObject({ deleted: done.sent, refused: { status: 400, code: 50035 } });
    expect(p.core.messages.get(internalId(p, done.sent))).toBeNull();
    expect(ev.all.map((e) => e.type)).toEqual(["message.created", "message.deleted"]);
  },
);

scenario("discord.py", "message-no-content", "without MESSAGE_CONTENT on_message has the envelope and empty content", async () => {
  await plain.event("ready");
  const { id } = await P.as("carol").say("general", "plain bots cannot read this", { embeds: [{ title: "nor this" }] });
  const seen = await plain.scenario("message-no-content", (l) => l.id === id);
  expect(seen).toEqual({
    scenario: "message-no-content",
    id,
    content: "",
    embeds: 0,
    components: 0,
    author: W().users.carol.id,
    channel: general(),
    created: expect.any(String),
  });
  // Parley's snowflake epoch is 2025-01-01 (spec 2.1); discord.py reads ids with the
  // reference's 2015 epoch, so created_at is ten years early. Shown in the matrix notes.
  expect(Date.parse(seen.created)).toBe(Number(BigInt(id) >> 22n) + 1420070400000);
  // The bot with MESSAGE_CONTENT saw the same message whole.
  expect(await main.event("message", (l) => l.id === id)).toMatchObject({ content: "plain bots cannot read this", embeds: ["nor this"] });
  await plain.stop();
});

scenario("discord.py", "disallowed-intents", "asking for an unapproved privileged intent raises PrivilegedIntentsRequired", async () => {
  expect(await greedy.scenario("disallowed-intents")).toMatchObject({ scenario: "disallowed-intents", error: "PrivilegedIntentsRequired" });
  expect(await greedy.proc.exited).toBe(0);
});

scenario("discord.py", "embeds-components", "an embed and a button row sent and read back; a person's embed read", async () => {
  const ev = recordEvents(p);
  const { id } = await P.as("bob").say("general", "!card", { embeds: [{ title: "bob's embed", description: "from a person" }] });
  const done = await main.scenario("embeds-components");
  ev.stop();
  // The person's message, the card, the card's edit.
  expect(ev.all.map((e) => e.type)).toEqual(["message.created", "message.created", "message.updated"]);
  expect(done.sent_shape).toEqual({ content: "a card", embeds: 1, rows: 1 });
  // A content-only edit keeps the embed.
  expect(done.edited).toEqual({ content: "card, edited", embeds: 1, edited: true });
  expect(done.person_embeds).toEqual(["bob's embed"]);
  expect(done.read_back.embed).toMatchObject({
    title: "Matrix card",
    description: "an embed from discord.py",
    color: 0x5865f2,
    fields: [{ name: "library", value: "discord.py", inline: true }],
    footer: { text: "footer text" },
  });
  expect(done.read_back.rows).toEqual([
    [
      expect.objectContaining({ type: 2, style: 5, label: "Docs", url: "https://example.org/docs" }),
      expect.objectContaining({ type: 2, style: 3, label: "Press", custom_id: "mx:press" }),
    ],
  ]);
  const seen = await P.waitForMessage("general", (m) => m.id === done.sent);
  expect(seen.embeds).toEqual([expect.objectContaining({ title: "Matrix card" })]);
  expect(seen.components).toEqual([
    expect.objectContaining({
      type: 1,
      components: [expect.objectContaining({ url: "https://example.org/docs" }), expect.objectContaining({ custom_id: "mx:press" })],
    }),
  ]);
  expect(BigInt(done.sent) > BigInt(id)).toBe(true);
});

scenario("discord.py", "reactions", "the bot reacts; a person's reaction add and remove reach on_raw_reaction_*", async () => {
  const bob = P.as("bob");
  const ev = recordEvents(p);
  const { id } = await bob.say("general", "!react");
  const reacted = await main.event("reacted", (l) => l.message === id);
  ev.stop();
  expect(ev.all.map((e) => e.type)).toEqual(["message.created", "reaction.added"]);
  // channel.history(): newest first, the bot's own reaction marked `me`.
  expect(reacted.history).toHaveLength(3);
  expect(reacted.history[0]).toBe(id);
  expect([...reacted.history].sort((a: string, b: string) => (BigInt(b) > BigInt(a) ? 1 : -1))).toEqual(reacted.history);
  expect(reacted.history_reactions).toEqual([["👍", 1, true]]);
  expect(await main.event("reaction_add", (l) => l.message === id)).toMatchObject({ emoji: "👍", user: botUser() });
  await bob.react("general", id, "👀");
  expect(await main.event("reaction_add", (l) => l.message === id)).toMatchObject({ emoji: "👀", user: W().users.bob.id });
  expect((await main.scenario("reactions")).reactions).toEqual([
    ["👀", 1, false],
    ["👍", 1, true],
  ]);
  await bob.unreact("general", id, "👀");
  expect(await main.event("reaction_remove", (l) => l.message === id)).toMatchObject({ emoji: "👀", user: W().users.bob.id });
  const msg = (await P.messages("general")).find((m) => m.id === id)!;
  expect(msg.reactions).toEqual([expect.objectContaining({ count: 1, me: false, emoji: expect.objectContaining({ name: "👍" }) })]);
});

scenario("discord.py", "typing", "a person's typing reaches on_typing; the bot's `async with typing()` reaches the server", async () => {
  const ev = recordEvents(p);
  const ch = internalId(p, general());
  expect((await client(p, "POST", `/channels/${ch}/typing`, W().users.bob.token)).status).toBe(204);
  expect(await main.event("typing")).toEqual({ event: "typing", channel: general(), user: W().users.bob.id });
  await P.as("bob").say("general", "!type");
  await main.scenario("typing");
  ev.stop();
  expect(ev.of("typing.started").map((e) => flake(e.userId as string))).toEqual([W().users.bob.id, botUser()]);
});

scenario("discord.py", "channels", "create, edit, set a role overwrite, fetch and delete channels; channel events arrive", async () => {
  const ev = recordEvents(p);
  await P.as("bob").say("general", "!chan");
  const done = await main.scenario("channels");
  ev.stop();
  expect(ev.all.map((e) => e.type)).toEqual([
    "message.created",
    "channel.created",
    "channel.updated", // the rename
    "channel.updated", // the role's overwrite
    "channel.updated", // bob's overwrite
    "channel.created",
    "channel.deleted",
  ]);
  expect(done.created).toEqual({ name: "mx-room", topic: "made by discord.py" });
  expect(done).toMatchObject({
    name: "mx-renamed",
    topic: "renamed by discord.py",
    overwrite: { send_messages: false, manage_messages: true },
  });
  const row = p.store.db.query("SELECT name, topic FROM channels WHERE id = ?").get(internalId(p, done.room)) as any;
  expect(row).toEqual({ name: "mx-renamed", topic: "renamed by discord.py" });
  expect(await main.event("channel_create", (l) => l.id === done.room)).toMatchObject({ name: "mx-room" });
  expect(await main.event("channel_create", (l) => l.id === done.scratch)).toMatchObject({ name: "mx-scratch" });
  expect(await main.event("channel_delete", (l) => l.id === done.scratch)).toMatchObject({ name: "mx-scratch" });
  // The rename and the overwrite are two CHANNEL_UPDATEs.
  expect((await main.event("channel_update", (l) => l.id === done.room)).name).toBe("mx-renamed");
  expect((await main.event("channel_update", (l) => l.id === done.room)).name).toBe("mx-renamed");
  const room = internalId(p, done.room);
  const ow = p.core.guilds.overwrites(room).sort((a, b) => a.target_type - b.target_type);
  expect(ow).toEqual([
    {
      channel_id: room,
      target_id: internalId(p, W().guilds.Lab.roles.Helper),
      target_type: 0,
      allow: PERMISSIONS.MANAGE_MESSAGES,
      deny: PERMISSIONS.SEND_MESSAGES,
    },
    {
      channel_id: room,
      target_id: internalId(p, W().users.bob.id),
      target_type: 1,
      allow: PERMISSIONS.MANAGE_MESSAGES,
      deny: PERMISSIONS.SEND_MESSAGES,
    },
  ]);
});

scenario("discord.py", "moderation", "add a role, kick, ban, list bans and read the audit log", async () => {
  const u = W().users;
  await P.as("bob").say("general", `!mod ${u.carol.id} ${u.dave.id} ${u.erin.id}`);
  const done = await main.scenario("moderation");
  expect(done.guild).toBe("Lab");
  expect(done.roles).toEqual(["@everyone", "Helper"]);
  expect(done.ban_reason).toBe("banned by matrix");
  expect(done.bans).toEqual([u.erin.id]);
  const mine = done.audit.filter((e: any) => e.user === botUser());
  expect(mine.slice(0, 3)).toEqual([
    { action: "ban", target: u.erin.id, reason: "banned by matrix", user: botUser() },
    { action: "kick", target: u.dave.id, reason: "kicked by matrix", user: botUser() },
    { action: "member_role_update", target: u.carol.id, reason: "helpful", user: botUser() },
  ]);
  const guild = internalId(p, W().guilds.Lab.id);
  const members = p.core.guilds.members(guild).map((m) => flake(m.user_id));
  expect(members).toContain(u.carol.id);
  expect(members).not.toContain(u.dave.id);
  expect(members).not.toContain(u.erin.id);
  expect(p.core.moderation.isBanned(guild, internalId(p, u.erin.id))).toBe(true);
  expect(await main.event("member_remove", (l) => l.user === u.dave.id)).toBeTruthy();
  expect(await main.event("member_remove", (l) => l.user === u.erin.id)).toBeTruthy();
});

scenario("discord.py", "webhooks", "create a webhook, then send, edit, fetch, delete through discord.Webhook", async () => {
  await P.as("bob").say("general", "!hook");
  const done = await main.scenario("webhooks");
  expect(done).toMatchObject({
    listed: ["MatrixHook"],
    edited: "via webhook, edited",
    fetched: "via webhook, edited",
    author: "Hooky",
    remaining: [],
  });
  const msgs = await P.messages("general", { limit: 10 });
  expect(msgs.find((m) => m.id === done.sent)).toBeUndefined();
  expect(msgs.find((m) => m.id === done.late)).toMatchObject({ content: "after the delete", webhook_id: done.webhook });
  expect(done.sent_content).toBe("via webhook");
  expect(done.sent_webhook).toBe(done.webhook);
  // The send without wait=True (204, nothing returned) landed after the late one.
  const stored = p.core.messages.list(internalId(p, general()), { limit: 2 }, null);
  expect(stored.map((m) => m.content)).toEqual(["no wait", "after the delete"]);
  expect(flake(stored[0].webhook_id!)).toBe(done.webhook);
});

scenario(
  "discord.py",
  "dms",
  "a person's DM arrives as an envelope with empty content; the plaintext reply reaches the person",
  async () => {
    const dm = await P.as("bob").dm("MatrixBot", "psst, secret plans");
    const seen = await main.event("message", (l) => l.id === dm.id);
    expect(seen).toMatchObject({ content: "", dm: true, channel: dm.channel_id, author: W().users.bob.id });
    const done = await main.scenario("dms");
    expect(done).toMatchObject({ received: "", channel: dm.channel_id });
    const mine = await P.waitForMessage(dm.channel_id, (m) => m.id === done.reply, { as: "bob" });
    expect(mine).toMatchObject({ content: "Hi bob, your DM reached me (I cannot read it).", author: { id: botUser() } });
    // The person's own message reads back whole on their side only.
    expect((await P.messages(dm.channel_id, { as: "bob" })).find((m) => m.id === dm.id)?.content).toBe("psst, secret plans");
  },
);

scenario("discord.py", "slash-commands", "tree.sync; send_message(ephemeral), defer + followup.send, edit_original_response", async () => {
  const bob = P.as("bob");
  const get = (id: string) => P.harness("GET", `/interactions/${id}`);

  const ping = await bob.interact({ channel_id: "general", application_id: "MatrixBot", name: "ping" });
  expect(ping.delivered).toBe(true);
  expect(await main.scenario("slash-commands", (l) => l.step === "ping")).toMatchObject({ id: ping.id });
  const pinged = await get(ping.id);
  expect(pinged).toMatchObject({ state: "responded", response: { content: "pong (only you see this)" } });
  expect(pinged.response.flags & 64).toBe(64);

  const slow = await bob.interact({
    channel_id: "general",
    application_id: "MatrixBot",
    name: "slow",
    options: [{ name: "what", type: 3, value: "tea" }],
  });
  const slowDone = await main.scenario("slash-commands", (l) => l.step === "slow");
  // After a defer, the first follow-up is the response (spec 3.1), no longer LOADING (128).
  const slowed = await get(slow.id);
  expect(slowed).toMatchObject({ state: "responded", response: { id: slowDone.followup, content: "later: tea" } });
  expect(slowed.response.flags & 128).toBe(0);

  // defer(ephemeral=True): the follow-up that fills the deferral stays ephemeral.
  const secret = await bob.interact({ channel_id: "general", application_id: "MatrixBot", name: "secret" });
  const secretDone = await main.scenario("slash-commands", (l) => l.step === "secret");
  expect(secretDone.flags & 64).toBe(64);
  const secreted = await get(secret.id);
  expect(secreted).toMatchObject({ state: "responded", response: { id: secretDone.followup, content: "only you see this, later" } });
  expect(secreted.response.flags & 64).toBe(64);
  expect((await P.messages("general", { as: "carol" })).find((m) => m.id === secretDone.followup)).toBeUndefined();

  const edit = await bob.interact({ channel_id: "general", application_id: "MatrixBot", name: "edit" });
  const editDone = await main.scenario("slash-commands", (l) => l.step === "edit");
  expect(editDone).toMatchObject({ edited: "final draft", original: "final draft" });
  const edited = await get(edit.id);
  expect(edited).toMatchObject({ state: "responded", response: { content: "final draft" } });
  // followup.send after send_message is a follow-up, not the response.
  expect(edited.followups).toEqual([expect.objectContaining({ id: editDone.followup, content: "and a follow-up" })]);

  // Global commands: tree.sync() without a guild, then fetch_commands().
  await bob.say("general", "!sync");
  expect(await main.scenario("slash-commands", (l) => l.step === "sync")).toEqual({
    scenario: "slash-commands",
    step: "sync",
    synced: ["hello", "tag"],
    fetched: ["hello", "tag"],
    hello_options: [
      ["name", true, null, null],
      ["times", false, 1, 3],
    ],
    tag_sub: ["get"],
  });
});

scenario("discord.py", "components", "a persistent View: a button edits its message, a select answers ephemerally", async () => {
  const bob = P.as("bob");
  await bob.say("general", "!panel");
  const panel = await main.event("panel");
  const click = await bob.interact({ channel_id: "general", message_id: panel.id, custom_id: "mx:bump" });
  expect(click.delivered).toBe(true);
  expect(await main.scenario("components", (l) => l.step === "button")).toMatchObject({ message: panel.id, user: W().users.bob.id });
  await P.waitForMessage("general", (m) => m.id === panel.id && m.content === "panel: bumped by bob");

  const pick = await bob.interact({ channel_id: "general", message_id: panel.id, custom_id: "mx:pick", values: ["green"] });
  expect(await main.scenario("components", (l) => l.step === "select")).toMatchObject({ values: ["green"] });
  const picked = await P.harness("GET", `/interactions/${pick.id}`);
  expect(picked).toMatchObject({ state: "responded", response: { content: "you picked green" } });
  expect(picked.response.flags & 64).toBe(64);

  // edit_message(view=None) takes the components off.
  const close = await bob.interact({ channel_id: "general", message_id: panel.id, custom_id: "mx:close" });
  expect(close.delivered).toBe(true);
  expect(await main.scenario("components", (l) => l.step === "close")).toMatchObject({ message: panel.id });
  expect(await P.harness("GET", `/interactions/${close.id}`)).toMatchObject({
    state: "responded",
    response: { id: panel.id, content: "panel: closed", components: [] },
  });
});

/**
 * Set the bot's epoch (`!epoch shim` runs the documented line, `!epoch reference` puts
 * discord.py's own back), then run the hybrid command /when: the creation times
 * discord.py read from both ids against the server's, and how /when answered.
 */
async function epochProbe(mode: "shim" | "reference") {
  const shimmed = mode === "shim";
  const said = await P.as("bob").say("general", `!epoch ${mode}`);
  const set = await main.scenario("epoch", (l) => l.step === "mode" && l.id === said.id);
  expectLibraryTime(set.created, said.id, shimmed);
  expectServerTime(said.id, await serverTimestamp(P, "general", said.id));
  const from = p.clock.now();
  const run = await P.as("bob").interact({ channel_id: "general", application_id: "MatrixBot", name: "when" });
  const to = p.clock.now();
  const when = await main.scenario("epoch", (l) => l.step === "when" && l.id === run.id);
  expectLibraryTime(when.created, run.id, shimmed);
  expectServerTime(run.id, { from, to });
  return {
    when,
    interaction: await P.harness("GET", `/interactions/${run.id}`),
    sent: await P.waitForMessage("general", (m) => m.id === when.sent),
  };
}

scenario(
  "discord.py",
  "epoch-unshimmed",
  "created_at is ten years early; is_expired() is true on a fresh interaction, so a hybrid command answers in the channel and never acknowledges",
  async () => {
    const { when, interaction, sent } = await epochProbe("reference");
    expect(when).toMatchObject({ expired: true, answered: "channel" });
    expect(interaction).toMatchObject({ state: "pending", response: null, followups: [] });
    expect(sent).toMatchObject({ content: "noted", author: { id: botUser() } });
    expect(sent.interaction_metadata).toBeUndefined();
  },
);

scenario(
  "discord.py",
  "epoch",
  "with DISCORD_EPOCH set, created_at is the server's time; a fresh interaction is not expired and a hybrid command answers through it",
  async () => {
    const { when, interaction, sent } = await epochProbe("shim");
    expect(when).toMatchObject({ expired: false, answered: "interaction" });
    expect(interaction).toMatchObject({ state: "responded", response: { id: when.sent, content: "noted" } });
    expect(sent.interaction_metadata).toMatchObject({ id: when.id });
  },
);

scenario("discord.py", "resume", "a server-side 4000 close: discord.py resumes, gets the missed message, then on_resumed", async () => {
  const app = internalId(p, W().applications.MatrixBot.id);
  const [s] = p.gateway.sessionsOf(app).filter((x) => x.connected);
  expect(p.gateway.disconnect(s.session_id, 4000)).toBe(true);
  const { id } = await P.as("bob").say("general", "said while you were away");
  const missed = await main.event("message", (l) => l.id === id);
  expect(missed).toMatchObject({ content: "said while you were away" });
  const resumed = await main.event("resumed");
  expect(resumed).toEqual({ event: "resumed", session: s.session_id });
  // Replayed before RESUMED, as the spec orders it.
  expect(main.indexOf(missed)).toBeLessThan(main.indexOf(resumed));
  expect(p.gateway.sessionsOf(app)).toEqual([expect.objectContaining({ session_id: s.session_id, connected: true })]);
});

scenario(
  "discord.py",
  "invalid-session",
  "silent past the zombie timeout and the session lifetime (virtual clock): RESUME gets op 9, discord.py re-identifies",
  async () => {
    const app = internalId(p, W().applications.MatrixBot.id);
    const [before] = p.gateway.sessionsOf(app);
    // 2.5 heartbeat intervals without a beat close the socket with 4000; the session then
    // expires 5 minutes after its last activity, so discord.py's RESUME finds nothing.
    p.clock.advance(5 * 60_000 + 1000);
    expect(p.gateway.sessionsOf(app)).toEqual([]);
    // discord.py sleeps 5 s before any IDENTIFY that is not its first (before_identify_hook),
    // then 2 s for GUILD_CREATEs: this cell takes about 7 s of real time.
    const again = await main.event("ready");
    expect(again.session).not.toBe(before.session_id);
    expect(again.guild.channels).toContain("general");
    expect(p.gateway.sessionsOf(app)).toEqual([expect.objectContaining({ session_id: again.session, connected: true })]);
    const { id } = await P.as("bob").say("general", "welcome back");
    expect(await main.event("message", (l) => l.id === id)).toMatchObject({ content: "welcome back" });
  },
);

scenario(
  "discord.py",
  "token-rotation",
  "rotation mid-session: op 9 and close, REST with the old token raises 401, the bot stops",
  async () => {
    const old = P.tokenOf("MatrixBot");
    const fresh = await P.rotate("MatrixBot");
    const done = await main.scenario("token-rotation");
    expect(done.rest).toMatchObject({ type: "HTTPException", status: 401, code: 0 });
    await main.event("stopped");
    expect(await main.proc.exited).toBe(0);
    expect(await main.stderrDone).not.toContain("Traceback");
    expect(p.gateway.sessionsOf(internalId(p, W().applications.MatrixBot.id)).filter((s) => s.connected)).toEqual([]);
    expect(refusal(await call(p, "GET", "/users/@me", { token: old }))).toEqual([401, 0]);
    expect((await call(p, "GET", "/users/@me", { token: fresh })).status).toBe(200);
  },
);

scenario(
  "discord.py",
  "bucket-429",
  "the bucket spent by another process: discord.py waits retry_after and retries (small windows)",
  async () => {
    await restUp();
    const lp = serverOf(L);
    const ch = L.world.guilds.Lab.channels.general;
    const token = L.tokenOf("RestBot");
    // Another process with the same token spends the bucket (2 per 1.5 s on this server).
    for (let i = 0; i < 2; i++)
      expect((await call(lp, "POST", `/channels/${ch}/messages`, { token, body: { content: `spend ${i}` } })).status).toBe(200);
    const refused = await call(lp, "POST", `/channels/${ch}/messages`, { token, body: { content: "one too many" } });
    expect(refusal(refused)).toEqual([429, 0]);
    // The window opened with the first spend, so most of it is still ahead of the bot.
    expect(refused.body.retry_after).toBeGreaterThan(1);
    expect(refused.headers.get("via")).toBeTruthy();
    rest.send("bucket");
    const done = await rest.scenario("bucket-429");
    expect(done.warnings).toEqual([
      expect.stringMatching(/^We are being rate limited\. POST .*\/channels\/\d+\/messages responded with 429\./),
    ]);
    const msgs = (await L.messages("general")).filter((m) => m.content === "sent after a bucket 429");
    expect(msgs.map((m) => m.id)).toEqual([done.sent]);
  },
);

scenario(
  "discord.py",
  "global-429",
  "the global window spent by another bot: discord.py holds every request and retries (small windows)",
  async () => {
    await restUp();
    const lp = serverOf(L);
    const other = L.tokenOf("OtherBot");
    // Spend the window until it refuses; if it is about to roll over, spend the next one
    // instead, so discord.py's request surely lands in a full window.
    let retryAfter = 0;
    for (let i = 0; i < 60 && retryAfter < 0.7; i++) {
      const r = await call(lp, "GET", "/users/@me", { token: other });
      if (r.status === 429) {
        expect(r.body.global).toBe(true);
        retryAfter = r.body.retry_after;
        if (retryAfter < 0.7) await Bun.sleep(retryAfter * 1000 + 5);
      }
    }
    expect(retryAfter).toBeGreaterThanOrEqual(0.7);
    rest.send("global");
    const done = await rest.scenario("global-429");
    expect(done.warnings).toContainEqual(expect.stringMatching(/^Global rate limit has been hit\. Retrying in/));
    const msgs = (await L.messages("staff")).filter((m) => m.content === "sent after a global 429");
    expect(msgs.map((m) => m.id)).toEqual([done.sent]);
  },
);

scenario("discord.py", "not-implemented", "Client.create_guild answers 501, raised as DiscordServerError", async () => {
  await restUp();
  rest.send("not-implemented");
  expect(await rest.scenario("not-implemented")).toEqual({
    scenario: "not-implemented",
    error: "DiscordServerError",
    is_server_error: true,
    status: 501,
    code: 0,
    text: expect.stringContaining("Not Implemented"),
  });
  // Another 501 route (stickers): an HTTPException with the spec's code 0.
  rest.send("sticker");
  expect(await rest.scenario("not-implemented", (l) => l.step === "sticker")).toEqual({
    scenario: "not-implemented",
    step: "sticker",
    error: "DiscordServerError",
    is_http_exception: true,
    status: 501,
    code: 0,
  });
});

faultCells({
  lib: "discord.py",
  async start(s) {
    requireDiscordPy();
    const b = spawnBot("py_fault_bot.py", [s.sdk.baseUrl, s.sdk.gatewayUrl, s.sdk.tokenOf("FullBot")]);
    await b.event("ready");
    const errors: unknown[] = [];
    // Send failures arrive as lines; the not-supported cells count them.
    const poll = setInterval(() => {
      for (const l of b.lines) if (l.event === "error" && !errors.includes(l)) errors.push(l);
    }, 20);
    return { errors, stop: async () => (clearInterval(poll), b.stop()) };
  },
});
