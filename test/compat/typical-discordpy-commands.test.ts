/**
 * The typical discord.py bot's prefix commands (test/compat/typical-py.ts): converters,
 * checks, the cooldown, on_command_error's answers, the help command, embeds, DMs,
 * history, pins, reactions and the wait_for games, as the people who typed them see them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { HarnessMessage } from "../../src/testing/wire-types";
import { startTypical, type Typical, said } from "./typical-py";

let T: Typical;

beforeAll(async () => {
  T = await startTypical();
}, 90_000);

afterAll(async () => {
  await T?.stop();
});

const id = (name: string) => T.P.world.users[name].id;
/** A message's reactions (a message without any carries none). */
const reactionsOf = (m?: HarnessMessage) => (m as { reactions?: unknown[] } | undefined)?.reactions ?? [];
/** People's and the bot's own words: not the system messages a pin posts. */

describe("typical discord.py bot: prefix commands", () => {
  test("setup_hook loaded every cog and synced the tree to the server", async () => {
    const synced = await T.bot.saw((l) => l.event === "synced", "synced");
    expect(synced.commands).toEqual([
      "chat_input:daily",
      "chat_input:double",
      "chat_input:echo",
      "chat_input:fancy",
      "chat_input:pick",
      "chat_input:roleinfo",
      "chat_input:roll",
      "chat_input:settings",
      "chat_input:slowpoke",
      "chat_input:tag",
      "chat_input:think",
      "chat_input:tidyup",
      "chat_input:userinfo",
      "chat_input:vote",
      "chat_input:whisper",
      "chat_input:wipe",
      "message:Shout",
    ]);
  }, 30_000);

  test("converters: int, Greedy[Member], a custom Converter, and the errors they raise", async () => {
    expect(await T.text("carol", "general", "!add 2 40")).toBe("2 + 40 = 42");
    expect(await T.text("carol", "general", "!add two 40")).toBe('Bad argument: Converting to "int" failed for parameter "left".');
    expect(await T.text("carol", "general", "!add 2")).toBe("Missing argument: right. Usage: !add <left> <right>");
    expect(await T.text("carol", "general", `!hug <@${id("alice")}> bob`)).toBe("carol hugs alice, bob for no reason.");
    expect(await T.text("carol", "general", "!remind 5m tea")).toBe("I will remind you of 'tea' in 300 seconds.");
    expect(await T.text("carol", "general", "!remind soon tea")).toBe("Bad argument: 'soon' is not a duration like 90s, 5m or 2h");
  }, 60_000);

  test("checks: has_permissions, is_owner (the application's owner) and guild_only in a DM", async () => {
    expect(await T.text("carol", "general", `!giverole <@${id("carol")}> Helper`)).toBe("You need manage_roles for that.");
    expect(await T.text("bob", "general", "!secret")).toBe("Only my owner can do that.");
    expect(await T.text("alice", "general", "!secret")).toBe("The owner's secret is 42.");
    // Spec 6: DMs are end-to-end encrypted, so the bot sees "!hug bob" in a DM as an empty
    // message and never reaches guild_only's NoPrivateMessage: no command runs in a DM.
    const dm = await T.P.as("carol").dm("TypicalBot", "!hug bob");
    const seen = await T.P.waitFor(
      async () =>
        (await T.P.transcript("TypicalBot")).entries.find((e) => e.kind === "gateway" && e.t === "MESSAGE_CREATE" && e.d.id === dm.id),
      { timeoutMs: 15_000 },
    );
    expect(seen.kind === "gateway" && seen.d).toMatchObject({ content: "", service_e2e_encrypted: true, channel_type: 1 });
    // The bot handles its events in order: once it answered a later command, it had its chance at the DM.
    expect(await T.text("carol", "general", "!add 1 1")).toBe("1 + 1 = 2");
    const inDm = await T.P.messages(dm.channel_id, { as: "carol" });
    expect(inDm.map((m) => m.author.id)).toEqual([id("carol")]);
  }, 60_000);

  test("a cooldown: the second !ping within 30 s is refused, and that answer deletes itself", async () => {
    expect(await T.text("carol", "games", "!ping")).toBe("Pong!");
    const { reply } = await T.ask("carol", "games", "!ping");
    expect(reply.content).toMatch(/^Slow down! Try again in \d+s\.$/);
    await T.P.waitFor(async () => ((await T.message("games", reply.id)) ? undefined : true), { timeoutMs: 15_000 });
    // A cooldown is per person: bob still may.
    expect(await T.text("bob", "games", "!ping")).toBe("Pong!");
  }, 60_000);

  test("the default help command lists the cogs' commands, and !help <command> shows its arguments", async () => {
    const help = await T.text("carol", "general", "!help");
    // Cogs in name order, each command with its docstring's first line; the help command
    // verifies checks, so carol (no Manage Roles, Kick, ...) sees no Moderation and no owner's command.
    expect(help).toStartWith(
      "```\nA typical bot.\n\nPanels:\n  confirm  Ask for a confirmation.\n  flavours Pick ice cream.\n  more     A role select and a feedback form.\nSlash:\n  echo",
    );
    expect(help).toContain("Utility:\n  add      Add two numbers.\n");
    expect(help).toContain("  hug      Hug any number of members.\n");
    expect(help).not.toContain("secret");
    expect(help).not.toContain("Moderation:");
    const owners = await T.text("alice", "general", "!help");
    expect(owners).toMatch(
      /^```\nA typical bot\.\n\nChurn:\n {2}churn +Make and unmake a role and a channel; rename carol and make her\.\.\.\n {2}files +Read avatars and attachments; try to upload a file\.\n {2}hierarchy +Where the bot stands\.\n {2}oops +The mistakes a bot makes\.\n {2}pages +Page through a long history and the member list\.\n {2}wire +What a message carries\.\nExtras:\n {2}extras +Run the occasional calls\.\nModeration:\n {2}ban +Ban a user\.\n {2}giverole +Give a member a role\.\n/,
    );
    expect(owners).toMatch(/\n {2}secret +Only the owner may know\.\n/);
    expect(help).toContain("Type !help command for more info on a command.");
    const one = await T.text("carol", "general", "!help hug");
    expect(one).toBe(
      "```\n!hug\n\nHug any number of members.\n\nArguments:\n  members No description given\n  why     No description given (default: no reason)\n```",
    );
  }, 60_000);

  test("roles and nicknames: giverole adds the role, nick sets the nickname, both as the member then shows", async () => {
    expect(await T.text("alice", "general", `!giverole <@${id("carol")}> Helper`)).toBe("Gave Helper to carol.");
    const member = (await T.botGet(`/guilds/${T.P.world.guilds.Typical.id}/members/${id("carol")}`)).body;
    expect(member.roles).toContain(T.P.world.guilds.Typical.roles.Helper);
    expect(await T.text("alice", "general", `!nick ${id("carol")} Caz`)).toBe("carol is now Caz.");
    expect((await T.botGet(`/guilds/${T.P.world.guilds.Typical.id}/members/${id("carol")}`)).body.nick).toBe("Caz");
  }, 60_000);

  test("embeds: every field of a built Embed, and one from Embed.from_dict", async () => {
    const { reply } = await T.ask("alice", "general", `!whois <@${id("bob")}>`);
    expect(reply.embeds[0]).toMatchObject({
      title: "bob",
      description: `<@${id("bob")}> in Typical`,
      color: 0x5865f2,
      url: "https://example.com/members",
      timestamp: expect.stringMatching(/^2026-01-02T03:04:05(\.000)?(Z|\+00:00)$/),
      author: { name: "alice", url: "https://example.com/author", icon_url: "https://example.com/a.png" },
      thumbnail: { url: "https://example.com/thumb.png" },
      image: { url: "https://example.com/image.png" },
      footer: { text: `id ${id("bob")}`, icon_url: "https://example.com/f.png" },
      fields: [
        { name: "Roles", value: "Mods", inline: false },
        { name: "Helper", value: "False", inline: true },
        { name: "Bot", value: "False", inline: true },
      ],
    });
    const rules = (await T.ask("carol", "general", "!rules")).reply.embeds[0];
    expect(rules).toMatchObject({
      title: "Rules",
      description: "Be nice.",
      color: 0x00ff00,
      fields: [
        { name: "1", value: "No spam" },
        { name: "2", value: "No ads", inline: true },
      ],
      footer: { text: "Thanks" },
    });
  }, 60_000);

  test("a DM: member.send reaches the member's DM with the bot", async () => {
    const reply = await T.text("alice", "general", `!dm <@${id("bob")}> see you at eight`);
    const channel = reply.match(/in DM (\d+)\.$/)![1];
    const got = await T.P.waitForMessage(channel, (m) => m.content === "alice says: see you at eight", { as: "bob" });
    expect(got.author.id).toBe(T.P.world.applications.TypicalBot.bot_user_id);
  }, 60_000);

  test("history(before=...), fetch_message, pin and add_reaction", async () => {
    for (const line of ["one", "two", "three"]) await T.P.as("carol").say("Typical/quiet", line);
    expect(await T.text("carol", "quiet", "!before 2")).toBe("three | two");
    const target = await T.P.as("carol").say("Typical/quiet", "pin me");
    expect(await T.text("carol", "quiet", `!pinit ${target.id}`)).toBe("Pinned 'pin me'; 1 pinned.");
    const pinned = (await T.message("quiet", target.id))!;
    expect(pinned.pinned).toBe(true);
    expect(pinned.reactions).toEqual([expect.objectContaining({ emoji: expect.objectContaining({ name: "📌" }), count: 1 })]);
  }, 60_000);

  test("wait_for('message'): the guess game takes the asker's next number", async () => {
    const { reply } = await T.ask("carol", "games", "!guess");
    expect(reply.content).toBe("Guess a number between 1 and 10.");
    // Its wait_for starts once its send's answer is back: a number said before would go unheard.
    await T.bot.idle();
    await T.P.as("bob").say("Typical/games", "7");
    const mine = await T.P.as("carol").say("Typical/games", "7");
    const answer = await T.botSays("games", (m) => m.content.startsWith("Right") || m.content.startsWith("Wrong"), reply);
    expect(answer.content).toBe("Right!");
    expect(answer.message_reference?.message_id).toBe(mine.id);
  }, 60_000);

  test("wait_for('reaction_add'): the poll ends with the first person's 👍", async () => {
    const { reply } = await T.ask("carol", "games", "!poll Pizza tonight?");
    expect(reply.content).toBe("Poll: Pizza tonight?");
    await T.P.waitFor(async () => (reactionsOf(await T.message("games", reply.id)).length ? true : undefined), { timeoutMs: 15_000 });
    await T.bot.idle();
    await T.P.as("bob").react("Typical/games", reply.id, "👍");
    const done = await T.P.waitFor(
      async () => {
        const m = (await T.message("games", reply.id))!;
        return m.content !== reply.content ? m : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(done.content).toBe("Poll: Pizza tonight? (first vote: bob, 2 👍)");
    const raw = await T.bot.saw((l) => l.event === "raw_reaction" && l.message === reply.id && l.user === id("bob"), "bob's raw reaction");
    expect(raw).toMatchObject({ emoji: "👍", member: "bob" });
  }, 60_000);

  test("as spec 6 has it (op 8 accepted, ignored): a Greedy[Member] followed by a word no cached member bears answers only once discord.py's 30 s member query gives up", async () => {
    const sent = await T.P.as("bob").say("Typical/general", `!hug <@${id("alice")}> for the cake`);
    // MemberConverter misses "for" in the cache and asks the gateway (op 8); no chunk comes,
    // so Greedy stops there only when the library's wait times out (on the reference an empty chunk ends it at once).
    const asked = await T.P.waitFor(
      async () => (await T.P.transcript("TypicalBot")).entries.find((e) => e.kind === "gateway" && e.op === 8 && e.d?.query === "for"),
      { timeoutMs: 15_000 },
    );
    expect(asked).toBeTruthy();
    const answer = await T.P.waitFor(async () => (await T.botMessages("general", sent)).find(said), { timeoutMs: 45_000 });
    expect(answer.content).toBe("bob hugs alice for for the cake.");
  }, 60_000);

  test("occasional calls: roles, reactions, edits, fetches, embeds, mentions, a webhook, categories, overwrites, pins, the audit log", async () => {
    const sent = await T.P.as("alice").say("Typical/games", "!extras");
    await T.botSays("games", (m) => m.content === "extras done" || m.content.startsWith("Error"), sent);
    const lines = (await T.botMessages("games", sent)).map((m) => m.content.replace(/<@\d+>/g, "<@alice>"));
    expect(lines).toEqual([
      "create_role: Gamers #2ecc71 hoist=True mentionable=True",
      "role.edit: Players",
      "no ping",
      "reply: True",
      "reactions: ['🎉:1']",
      "cleared: 0",
      "now text",
      "edit: 'now text' embeds=0",
      "fetch_member: alice roles=1 owner=True",
      "fetch_user: alice",
      // Spec 5.11: a bot token never creates an invite.
      "create_invite: HTTP 403 50001",
      "channel.edit: 5 slow now",
      "", // the two embeds, no content
      "embeds: ['a', 'b']",
      "hey <@alice> @everyone",
      "mentions: ['alice'] everyone=False",
      // Threads are not part of the spec.
      "create_thread: HTTP 501 0",
      "get_member: alice top=@everyone",
      "webhook.send: Hooky",
      "overwrites: [('@everyone', False)]",
      "category: Projects ['alpha']",
      "move: None",
      // Spec 2.9: VIEW_CHANNEL is not one of the 13 bits, so the overwrite keeps send_messages only.
      "member overwrite: send=False/False view=None/None",
      "edit roles: ['Helper'] nick=C",
      "reset: [] nick=None display=carol",
      "pin and unpin",
      "", // the pin's system message (type 6), which the unpin leaves
      "pins after unpin: 0",
      "audit: ['message_unpin', 'message_pin', 'member_role_update']",
      "fetch_roles: 6 channels=9 get_channel=True",
      "extras done",
    ]);
    const hooked = (await T.P.messages("Typical/games")).find((m) => m.content === "from the hook")!;
    expect([hooked.author.username, hooked.webhook_id !== undefined && hooked.webhook_id !== null]).toEqual(["Hooky", true]);
    const presence = (await T.P.transcript("TypicalBot")).entries.find((e) => e.kind === "gateway" && e.op === 3);
    expect(presence?.kind === "gateway" && presence.d).toMatchObject({ status: "idle", activities: [{ name: "chess", type: 0 }] });
  }, 60_000);

  test("what a message carries: mentions of a member, a role and a channel, clean_content, the reply it answers, flags", async () => {
    const first = await T.P.as("bob").say("Typical/general", "original words");
    const helper = T.P.world.guilds.Typical.roles.Helper;
    const line = `!wire <@${id("bob")}> <@&${helper}> <#${T.P.channelId("Typical/log")}> @everyone`;
    const sent = await T.P.as("alice").say("Typical/general", line, { replyTo: first.id });
    await T.botSays("general", (m) => m.content === "wired", sent);
    const ev = (name: string) => T.bot.next((l) => l.event === name, name);
    expect(await ev("wire")).toEqual({
      event: "wire",
      mentions: ["bob"],
      roles: ["Helper"],
      channels: ["log"],
      raw_channels: 1,
      clean: "!wire @bob @Helper #log @\u200beveryone",
      reply_to: first.id,
      resolved: "original words",
      type: "MessageType.reply",
      jump: `https://discord.com/channels/${T.P.world.guilds.Typical.id}/${T.P.channelId("Typical/general")}/${sent.id}`,
      author_roles: [],
    });
    expect(await ev("embed_type")).toEqual({ event: "embed_type", type: "rich", dict: { type: "rich", title: "t", description: "d" } });
    expect(await ev("silent")).toEqual({ event: "silent", flags: 4096, suppress_notifications: true });
    expect(await ev("suppress")).toEqual({ event: "suppress", flags: 4 });
    expect(await ev("tts")).toEqual({ event: "tts", tts: true });
    expect((await ev("positions")).channels.map((c: [string, number]) => c[0])).toEqual([
      "general",
      "log",
      "status",
      "games",
      "tidy",
      "quiet",
      "views",
      // The extras test's channel, moved out of its category to the end.
      "alpha",
    ]);
  }, 60_000);

  test("the mistakes a hobby bot makes, as discord.py raises them", async () => {
    const sent = await T.P.as("alice").say("Typical/general", "!oops");
    await T.botSays("general", (m) => m.content === "oopsed", sent);
    const outcomes: Record<string, string> = {};
    for (let n = 0; n < 12; n++) {
      const l = await T.bot.next((x) => x.event === "oops", "an outcome");
      outcomes[l.name] = l.outcome.split("\n")[0];
    }
    expect(outcomes).toEqual({
      // Spec 7: every malformed body is 50035 (the reference says 50006 for an empty message).
      empty: "HTTPException 400 50035 Invalid Form Body (Cannot send an empty message)",
      long: "HTTPException 400 50035 Invalid Form Body (content: Must be 2000 or fewer in length.)",
      embed: "HTTPException 400 50035 Invalid Form Body (embeds[0].title: Must be 256 or fewer in length.)",
      fields: "HTTPException 400 50035 Invalid Form Body (embeds[0].fields: Must be 25 or fewer in length.)",
      // Spec 7: any not-found is 10003, so discord.py raises NotFound as for the reference's 10008, 10007, 10003.
      "unknown message": "NotFound 404 10003 Unknown message",
      "unknown member": "NotFound 404 10003 Unknown member",
      "unknown channel": "NotFound 404 10003 Unknown channel",
      // Spec 7: a missing permission is 50001 (the reference's 50013).
      "higher role": "Forbidden 403 50001 Missing Permissions: the server owner is above everyone",
      "own top role": "Forbidden 403 50001 Missing Permissions: the role is not below your highest role",
      "bad emoji": "NotFound 404 10003 Unknown emoji",
      "kick owner": "Forbidden 403 50001 Missing Permissions: the server owner is above everyone",
      buttons: "ok",
    });
  }, 60_000);

  test("a dropped connection resumes, and a command sent meanwhile is answered", async () => {
    expect(await T.text("carol", "quiet", "!add 1 2")).toBe("1 + 2 = 3");
    await T.P.faults.gatewayClose("TypicalBot", 4000);
    expect(await T.text("carol", "quiet", "!add 2 2")).toBe("2 + 2 = 4");
    await T.bot.saw((l) => l.event === "resumed", "resumed");
    expect(T.bot.lines.filter((l) => l.event === "on_ready")).toHaveLength(1);
  }, 60_000);
});
