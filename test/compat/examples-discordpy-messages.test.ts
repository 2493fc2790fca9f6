/**
 * discord.py's example bots that live on messages (examples/*.py of the discord.py
 * repository: prefix commands, converters, edits, deletions, replies, joins, background
 * tasks), each run unmodified but for the lines that point it at Parley
 * (test/compat/bots/examples_py/parley_target.py), in a server of its own. The people
 * around it type what the example's author meant them to type, and the test checks that
 * the bot did what the example means to do, on the server.
 *
 * All the bots start at once, and the tests run concurrently: each example has its own
 * server, so they do not see each other.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startParley, type RunningParley } from "../../src/testing";
import { serverOf } from "../helpers";
import { png } from "../support/png";
import { requireDiscordPy, type PyBot } from "./support";
import { allReady, exampleOf, startExamples, worldOf, type Example } from "./examples-py";

const EXAMPLES: Example[] = [
  { script: "basic_bot", privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"] },
  { script: "background_task", args: (P) => [P.channelId("background_task/general")] },
  { script: "background_task_asyncio", args: (P) => [P.channelId("background_task_asyncio/general")] },
  { script: "converters", privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"], channels: [{ name: "general" }, { name: "slow" }] },
  { script: "custom_context", privileged: ["MESSAGE_CONTENT"] },
  { script: "deleted", privileged: ["MESSAGE_CONTENT"] },
  { script: "edits", privileged: ["MESSAGE_CONTENT"] },
  { script: "guessing_game", privileged: ["MESSAGE_CONTENT"] },
  { script: "new_member", privileged: ["GUILD_MEMBERS"], members: [], channels: [{ name: "welcome" }, { name: "general" }] },
  { script: "reply", privileged: ["MESSAGE_CONTENT"] },
  // The same example where no administrator approved MESSAGE_CONTENT (spec 5.8).
  { script: "reply", name: "reply_unapproved", privileged: ["MESSAGE_CONTENT"], unapproved: true },
  {
    // Intents.default(): no MESSAGE_CONTENT; its prefix is the bot's mention, which the intent never gates.
    script: "secret",
    botPermissions: ["MANAGE_CHANNELS", "MANAGE_ROLES", "MANAGE_EXPRESSIONS"],
    roles: [{ name: "Agents" }],
  },
];

let P: RunningParley;
let bots: Record<string, PyBot>;
let sourceEmoji: string;

beforeAll(async () => {
  requireDiscordPy();
  const world = worldOf(EXAMPLES);
  // secret.py clones an emoji into its server: one from another server alice is in.
  world.guilds.push({ name: "Elsewhere", owner: "alice", members: [], channels: [{ name: "general" }], roles: [] });
  P = await startParley({ world, strict: false, rateLimits: "off" });
  const p = serverOf(P);
  const id = (flake: string) => p.api.flakes.uuid(flake)!;
  const e = await p.core.emojis.create(id(P.world.users.alice.id), id(P.world.guilds.Elsewhere.id), {
    name: "green",
    image: { bytes: png(4, 4, 2) },
  });
  sourceEmoji = `<:green:${p.api.flakes.of(e.id)}>`;
  bots = startExamples(P, EXAMPLES);
  await allReady(bots, ["reply_unapproved"]);
}, 90_000);

afterAll(async () => {
  for (const [n, b] of Object.entries(bots)) {
    await Bun.write(`/tmp/ex-${n}.tr`, await P.transcriptText(n));
    await b.stop();
    await b.stderrDone;
    await Bun.write(`/tmp/ex-${n}.err`, b.stderr + "\n" + b.printed.join("\n"));
  }
  await Promise.all(Object.values(bots ?? {}).map((b) => b.stop()));
  await P?.stop();
});

const say = (e: string, text: string, who = "alice", c = "general") => P.as(who).say(`${e}/${c}`, text);

describe("discord.py examples: messages", () => {
  test.concurrent("basic_bot: ?add, ?roll, ?choose, ?repeat, ?joined, the ?cool group and ?help", async () => {
    const ex = exampleOf(P, "basic_bot");
    const answer = async (text: string) => (await ex.botSays(() => true, await say(ex.name, text))).content;
    expect(await answer("?add 2 3")).toBe("5");
    expect(await answer("?roll 3d6")).toMatch(/^[1-6], [1-6], [1-6]$/);
    expect(await answer("?roll six")).toBe("Format has to be in NdN!");
    expect(["tea", "coffee"]).toContain(await answer("?choose tea coffee"));
    const repeat = await say(ex.name, "?repeat 2 hey");
    await ex.botSays((m) => m.content === "hey", await ex.botSays((m) => m.content === "hey", repeat));
    const joined = await answer("?joined bob");
    // discord.utils.format_dt: <t:unix seconds> of the member's joined_at, as the bot API has it.
    const member = (await ex.botGet(`/guilds/${ex.guildId()}/members/${P.world.users.bob.id}`)).body;
    expect(joined).toMatch(/^bob\S* joined <t:\d+>$/);
    expect(joined).toEndWith(`<t:${Math.floor(Date.parse(member.joined_at) / 1000)}>`);
    expect(await answer("?cool bob")).toBe("No, bob is not cool");
    expect(await answer("?cool bot")).toBe("Yes, the bot is cool.");
    const help = await answer("?help");
    for (const name of ["add", "choose", "cool", "joined", "repeat", "roll"]) expect(help).toContain(name);
  }, 60_000);

  for (const script of ["background_task", "background_task_asyncio"])
    test.concurrent(`${script}: the task posts its counter in the channel once the bot is ready`, async () => {
      const ex = exampleOf(P, script);
      // The next tick is 60 s of real time away: the first one shows the loop runs and sends.
      expect((await ex.botSays((m) => m.content === "1")).content).toBe("1");
    }, 30_000);

  test.concurrent("converters: User, Member, TextChannel and a custom converter, with the error handler", async () => {
    const ex = exampleOf(P, "converters");
    const bob = P.world.users.bob.id;
    const answer = async (text: string) => (await ex.botSays(() => true, await say(ex.name, text))).content;
    const info = await answer("!userinfo bob");
    expect(info.startsWith(`User found: ${bob} -- bob\n${P.baseUrl}/embed/avatars/`)).toBe(true);
    expect(await answer(`!userinfo <@${bob}>`)).toStartWith(`User found: ${bob} -- bob\n`);
    expect(await answer("!userinfo nobody-at-all")).toBe("Couldn't find that user.");
    expect(await answer(`!ignore bob`)).toBe(`Member found: <@${bob}>, adding them to the ignore list.`);
    expect(await answer("!multiply 4 yes")).toBe("8");
    expect(await answer("!multiply 4 off")).toBe("20");
    // A member: the bot opens a DM with bob and writes there (bot messages in a DM are plaintext, spec 1.6).
    await say(ex.name, "!notify bob");
    const sent = await P.waitForEvent((e) => e.t === "MESSAGE_CREATE" && e.d.author.id === ex.botId() && !e.d.guild_id);
    const dm = (await P.messages(sent.d.channel_id, { as: "bob" })).find((m) => m.id === sent.d.id)!;
    expect(dm.content).toBe("Hello, bob!");
  }, 60_000);

  test.concurrent("converters, as spec 6.1 has it: a channel where a Member may come first waits out op 8 (ignored), 30 s", async () => {
    // The Member converter asks the gateway (op 8) for a name it has not cached; Parley
    // ignores op 8 (spec 6.1), so discord.py gives up after its 30 s chunk timeout. In a
    // Union the TextChannel converter then takes over; the example's own converter
    // lets the timeout through, and the command fails.
    const ex = exampleOf(P, "converters");
    const general = ex.channelId();
    const ignore = await say(ex.name, `!ignore <#${general}>`, "alice", "slow");
    const notify = await say(ex.name, `!notify <#${general}>`, "alice", "slow");
    const found = await ex.botSays((m) => m.content.startsWith("Channel found"), ignore, "slow", 45_000);
    expect(found.content).toBe(`Channel found: <#${general}>, adding it to the ignore list.`);
    await bots.converters.logged("Ignoring exception in command notify");
    for (const c of ["slow", "general"]) expect((await ex.botMessages(notify, c)).map((m) => m.content)).not.toContain("Hello, general!");
    const ops = (await P.transcript("converters")).entries.filter((t) => t.kind === "gateway" && t.op === 8);
    expect(ops.map((t: any) => t.d.query)).toEqual([`<#${general}>`, `<#${general}>`]);
  }, 60_000);

  test.concurrent("custom_context: !guess answers with ctx.tick, a check mark or a cross on the command", async () => {
    const ex = exampleOf(P, "custom_context");
    const sent = await say(ex.name, "!guess 3");
    const reacted = await P.waitFor(async () => {
      const m = (await P.messages(ex.channel())).find((x) => x.id === sent.id);
      return (m?.reactions as { emoji: { name: string }; count: number }[] | undefined)?.length ? m : undefined;
    });
    const reactions = reacted.reactions as { emoji: { name: string }; count: number }[];
    expect(reactions).toHaveLength(1);
    expect(["✅", "❌"]).toContain(reactions[0].emoji.name);
    expect(reactions[0].count).toBe(1);
  }, 30_000);

  test.concurrent("deleted: !deleteme deletes the bot's own messages, and on_message_delete tells of every deletion", async () => {
    const ex = exampleOf(P, "deleted");
    const start = await say(ex.name, "!deleteme");
    const told = (what: string) => ex.botSays((m) => / has deleted the message: /.test(m.content) && m.content.endsWith(what), start);
    expect((await told("I will delete myself now...")).content).toMatch(
      /^deleted\S* has deleted the message: I will delete myself now\.\.\.$/,
    );
    // delete_after=3.0: the goodbye goes three seconds later, and its deletion is told too.
    await told("Goodbye in 3 seconds...");
    const left = (await ex.botMessages(start)).map((m) => m.content);
    expect(left).not.toContain("I will delete myself now...");
    expect(left).not.toContain("Goodbye in 3 seconds...");
    const mine = await say(ex.name, "a thing I regret");
    await P.as("alice").delete(mine.id);
    expect((await ex.botSays((m) => m.content.endsWith("a thing I regret"), mine)).content).toMatch(
      /^alice\S* has deleted the message: a thing I regret$/,
    );
  }, 30_000);

  test.concurrent("edits: !editme edits the bot's 10 into 40, and on_message_edit tells of every edit", async () => {
    const ex = exampleOf(P, "edits");
    const start = await say(ex.name, "!editme");
    const told = await ex.botSays((m) => m.content.includes("edited their message"), start);
    expect(told.content).toMatch(/^\*\*edits\S*\*\* edited their message:\n10 -> 40$/);
    expect((await ex.botMessages(start)).map((m) => m.content)).toContain("40");
    const mine = await say(ex.name, "colour");
    await P.as("alice").edit(mine.id, "color");
    expect((await ex.botSays((m) => m.content.includes("colour ->"), mine)).content).toMatch(
      /^\*\*alice\S*\*\* edited their message:\ncolour -> color$/,
    );
  }, 30_000);

  test.concurrent("guessing_game: $guess waits for the player's number, and gives up after 5 s", async () => {
    const ex = exampleOf(P, "guessing_game");
    const start = await say(ex.name, "$guess");
    await ex.botSays((m) => m.content === "Guess a number between 1 and 10.", start);
    // Its wait_for starts once its send's answer is back: a number said before would go unheard.
    await bots[ex.name].idle();
    const guess = await say(ex.name, "7");
    expect((await ex.botSays(() => true, guess)).content).toMatch(/^(You are right!|Oops\. It is actually (10|[1-9])\.)$/);
    // Another person's number is not the player's answer: the game times out.
    const again = await say(ex.name, "$guess");
    await ex.botSays((m) => m.content === "Guess a number between 1 and 10.", again);
    await bots[ex.name].idle();
    const other = await say(ex.name, "3", "bob");
    const end = await ex.botSays(() => true, other, "general", 15_000);
    expect(end.content).toMatch(/^Sorry, you took too long it was (10|[1-9])\.$/);
  }, 40_000);

  test.concurrent("new_member: someone joining is welcomed in the server's system channel", async () => {
    const ex = exampleOf(P, "new_member");
    await P.as("bob").join(await P.as("alice").invite(ex.channel()));
    const welcome = await ex.botSays(() => true, undefined, "welcome");
    expect(welcome.content).toBe(`Welcome <@${P.world.users.bob.id}> to new_member!`);
  }, 30_000);

  test.concurrent("reply: !hello is answered with a reply that mentions its author", async () => {
    const ex = exampleOf(P, "reply");
    const hello = await say(ex.name, "!hello");
    const reply = await ex.botSays(() => true, hello);
    expect(reply.content).toBe("Hello!");
    expect(reply.message_reference?.message_id).toBe(hello.id);
    expect((reply.mentions as { id: string }[]).map((u) => u.id)).toContain(P.world.users.alice.id);
  }, 30_000);

  test.concurrent("reply, as spec 5.8 has it: unapproved MESSAGE_CONTENT closes the gateway with 4014, and discord.py stops", async () => {
    const bot = bots.reply_unapproved;
    // discord.py raises PrivilegedIntentsRequired on close code 4014, and nothing else.
    await bot.logged("PrivilegedIntentsRequired");
    expect(await bot.proc.exited).not.toBe(0);
  }, 30_000);

  test.concurrent("secret: mention-prefixed commands without MESSAGE_CONTENT make channels and clone an emoji", async () => {
    const ex = exampleOf(P, "secret");
    const me = `<@${ex.botId()}>`;
    const agents = P.world.guilds[ex.name].roles.Agents;
    const bob = P.world.users.bob.id;
    const shh = await say(ex.name, `${me} secret`);
    await ex.botSays((m) => m.content === "Shh!", shh);
    await say(ex.name, `${me} secret text hideout <@&${agents}> <@${bob}>`);
    await say(ex.name, `${me} secret voice bunker <@&${agents}>`);
    const channel = async (name: string) =>
      P.waitFor(async () => (await ex.botGet(`/guilds/${ex.guildId()}/channels`)).body.find((c: any) => c.name === name));
    const hideout = await channel("hideout");
    expect(hideout.type).toBe(0);
    expect(hideout.topic).toBe("Top secret text channel. Any leakage of this channel may result in serious trouble.");
    // The overwrites only hold VIEW_CHANNEL, which Parley does not honour (spec 2.9): dropped, nothing granted or denied.
    const targets = [ex.guildId(), agents, bob, ex.botId()];
    expect(hideout.permission_overwrites.map((o: any) => o.id).sort()).toEqual(targets.sort());
    for (const o of hideout.permission_overwrites) expect([o.allow, o.deny]).toEqual(["0", "0"]);
    expect((await channel("bunker")).type).toBe(2);
    // The emoji command reads the emoji's image from the CDN (Parley's, at the same path) and adds it to this server.
    await say(ex.name, `${me} secret emoji ${sourceEmoji} <@&${agents}>`);
    const emojis = await P.waitFor(async () => {
      const all = (await ex.botGet(`/guilds/${ex.guildId()}/emojis`)).body;
      return all.length ? all : undefined;
    });
    expect(emojis.map((e: any) => e.name)).toEqual(["green"]);
    expect(`<:green:${emojis[0].id}>`).not.toBe(sourceEmoji);
    // The clone is the picture the bot read: the same bytes at both emoji's CDN paths.
    const image = async (id: string) => new Uint8Array(await (await fetch(`${P.baseUrl}/emojis/${id}.png`)).arrayBuffer());
    expect(await image(emojis[0].id)).toEqual(await image(/:(\d+)>$/.exec(sourceEmoji)![1]));
    // delete_after=5: the "Shh!" goes five seconds after it came.
    await P.waitFor(async () => !(await ex.botMessages(shh)).some((m) => m.content === "Shh!"), { timeoutMs: 10_000 });
  }, 40_000);
});
