/**
 * A discord.py 2.x bot written the way most hobby bots are (test/compat/bots/typical_py: a
 * commands.Bot subclass, cogs loaded as extensions in setup_hook, guild-synced app
 * commands, views, listeners, a task loop), run under /usr/bin/python3 against a Parley of
 * its own. The people around it are played through the harness.
 */
import { INTENTS, NON_PRIVILEGED_INTENTS } from "../../src/core";
import { startParley, type RunningParley } from "../../src/testing";
import type { HarnessMessage } from "../../src/testing/wire-types";
import { PyBot, requireDiscordPy } from "./support";

/**
 * Alice owns the server and the application (so `is_owner` is her); bob is a moderator
 * (kick, ban, manage messages); carol a plain member; dave joins later. The bot's role may
 * do what its moderation commands need.
 */
export const TYPICAL_WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }, { name: "dave" }],
  guilds: [
    {
      name: "Typical",
      owner: "alice",
      members: ["bob", "carol"],
      channels: ["general", "log", "status", "games", "tidy", "quiet", "views"].map((name) => ({ name })),
      roles: [
        { name: "Member", permissions: [] },
        { name: "Helper", permissions: [] },
        { name: "Mods", permissions: ["KICK_MEMBERS", "BAN_MEMBERS", "MANAGE_MESSAGES"], members: ["bob"] },
        {
          name: "Keeper",
          permissions: [
            "KICK_MEMBERS",
            "BAN_MEMBERS",
            "MANAGE_ROLES",
            "MANAGE_CHANNELS",
            "MANAGE_MESSAGES",
            "SEND_MESSAGES",
            "VIEW_AUDIT_LOG",
          ],
          members: ["TypicalBot"],
        },
      ],
    },
  ],
  applications: [
    {
      name: "TypicalBot",
      owner: "alice",
      intents: NON_PRIVILEGED_INTENTS | INTENTS.GUILD_MEMBERS | INTENTS.MESSAGE_CONTENT,
      approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
      install: ["Typical"],
    },
  ],
};

export interface Typical {
  P: RunningParley;
  bot: PyBot;
  /** Starts the bot anew (the old process must be stopped) and waits for its ready. */
  restart(): Promise<void>;
  /** A person's message in a channel and the bot's first message there after it that satisfies `match`. */
  ask(
    who: string,
    channel: string,
    text: string,
    match?: (m: HarnessMessage) => boolean,
  ): Promise<{ sent: { id: string }; reply: HarnessMessage }>;
  /** The bot's first message in `channel` after `after` that satisfies `match`. */
  botSays(channel: string, match: (m: HarnessMessage) => boolean, after?: { id: string }): Promise<HarnessMessage>;
  /** Every message of the bot in `channel` after `after`, oldest first. */
  botMessages(channel: string, after?: { id: string }): Promise<HarnessMessage[]>;
  /** A bot API GET with the bot's token. */
  botGet(path: string): Promise<{ status: number; body: any }>;
  /** The text of the bot's first plain message or reply after a person's `line`. */
  text(who: string, channel: string, line: string): Promise<string>;
  /** A message of `channel` by id (among its last 100), if it is still there. */
  message(channel: string, id: string): Promise<HarnessMessage | undefined>;
  stop(): Promise<void>;
}

/** A plain message or a reply: what the bot says in answer to a prefix command. */
export const said = (m: HarnessMessage) => m.type === 0 || m.type === 19;

const start = (P: RunningParley) =>
  PyBot.start("typical_py/bot.py", [P.baseUrl, P.gatewayUrl, P.tokenOf("TypicalBot"), P.world.guilds.Typical.id], 15_000, [
    "examples_py",
    "typical_py",
  ]);

export async function startTypical(): Promise<Typical> {
  requireDiscordPy();
  const P = await startParley({ world: TYPICAL_WORLD, strict: false, rateLimits: "off" });
  const holder = { bot: start(P) };
  try {
    await holder.bot.saw((l) => l.event === "ready", "ready");
  } catch (e) {
    await holder.bot.stop();
    await P.stop();
    throw e;
  }
  const botId = () => P.world.applications.TypicalBot.bot_user_id;
  const newer = (m: { id: string }, after?: { id: string }) => !after || BigInt(m.id) > BigInt(after.id);
  const mine = async (channel: string, after?: { id: string }) =>
    (await P.messages(`Typical/${channel}`, { limit: 100 })).reverse().filter((m) => m.author.id === botId() && newer(m, after));
  const botSays = (channel: string, match: (m: HarnessMessage) => boolean, after?: { id: string }) =>
    P.waitFor(async () => (await mine(channel, after)).find(match), { timeoutMs: 15_000 });
  const ask = async (who: string, channel: string, text: string, match: (m: HarnessMessage) => boolean = () => true) => {
    const sent = await P.as(who).say(`Typical/${channel}`, text);
    return { sent, reply: await botSays(channel, match, sent) };
  };
  return {
    P,
    get bot() {
      return holder.bot;
    },
    restart: async () => {
      holder.bot = start(P);
      await holder.bot.saw((l) => l.event === "ready", "ready");
    },
    ask,
    botSays,
    botMessages: mine,
    botGet: async (path) => {
      const res = await fetch(`${P.restBase}${path}`, { headers: { Authorization: `Bot ${P.tokenOf("TypicalBot")}` } });
      return { status: res.status, body: (await res.json()) as any };
    },
    text: async (who, channel, line) => (await ask(who, channel, line, said)).reply.content,
    message: async (channel, id) => (await P.messages(`Typical/${channel}`, { limit: 100 })).find((m) => m.id === id),
    stop: async () => {
      await holder.bot.stop();
      await P.stop();
    },
  };
}

/** The buttons and selects of a message, flat, in row order. */
export const parts = (m: HarnessMessage): any[] => m.components.flatMap((row: any) => row.components);
