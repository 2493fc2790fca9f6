/**
 * The discord.js bot frameworks (Sapphire, discordx) as their users lay a bot out, each run as
 * a child process against a Parley of its own and pointed at it only by discord.js's
 * `rest: { api }`. The people around the bot are played through the harness; a bot prints a
 * JSON line ({"event": ...}) only for what a person could not see.
 */
import { INTENTS, NON_PRIVILEGED_INTENTS } from "../../src/core";
import { startParley, type RunningParley } from "../../src/testing";
import type { HarnessMessage } from "../../src/testing/wire-types";
import { PyBot } from "./support";

/**
 * Alice owns the server; bob may manage it (Manage Server, not an administrator); carol and
 * dave are plain members; frank is not in it yet (he joins to meet the welcome listener).
 * With `botAdmin` the bot's role is an administrator: spec 2.9 shows VIEW_CHANNEL as 0, so a
 * framework that checks the bot's channel permissions before it reads a message (Sapphire's
 * message commands) sees them only through Administrator.
 */
export function frameworkWorld(app: string, botAdmin = false) {
  const botRole = botAdmin ? [{ name: "Bots", permissions: ["ADMINISTRATOR"], members: [app] }] : [];
  return {
    users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }, { name: "dave" }, { name: "frank" }],
    guilds: [
      {
        name: "Home",
        owner: "alice",
        members: ["bob", "carol", "dave"],
        roles: [{ name: "Crew", permissions: [] }, { name: "Stewards", permissions: ["MANAGE_GUILD"], members: ["bob"] }, ...botRole],
        channels: [{ name: "general" }, { name: "polls" }, { name: "quiet" }],
      },
    ],
    applications: [
      {
        name: app,
        owner: "alice",
        intents:
          NON_PRIVILEGED_INTENTS | INTENTS.GUILD_MEMBERS | INTENTS.MESSAGE_CONTENT | INTENTS.GUILD_MESSAGES | INTENTS.DIRECT_MESSAGES,
        approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
        install: ["Home"],
      },
    ],
  };
}

export interface FrameworkBot {
  P: RunningParley;
  bot: PyBot;
  /** Stops the bot's process and starts it again; answers once the new one is ready. */
  restart(): Promise<PyBot>;
  /** The bot's newest message in a channel of the server, after `after`, that satisfies `match`. */
  botSays(channel: string, match: (m: HarnessMessage) => boolean, after?: { id: string }): Promise<HarnessMessage>;
  /** The application's commands as the bot API lists them (global, or the server's). */
  commands(scope: "global" | "guild"): Promise<any[]>;
  /** A bot API GET with the bot's token. */
  get(path: string): Promise<any>;
  stop(): Promise<void>;
}

/**
 * A Parley with the framework world and `argv` (the bot) started in it from its project's
 * folder `cwd`, as its users run it; `ready` says which of the bot's lines means it is up
 * (after its commands are registered); `botAdmin` as in frameworkWorld.
 */
export async function startFrameworkBot(
  app: string,
  argv: string[],
  cwd: string,
  ready: (l: any) => boolean,
  botAdmin = false,
): Promise<FrameworkBot> {
  const P = await startParley({ world: frameworkWorld(app, botAdmin), strict: false });
  const env = {
    DISCORD_TOKEN: P.tokenOf(app),
    CLIENT_ID: P.world.applications[app].id,
    GUILD_ID: P.world.guilds.Home.id,
    PARLEY_API: P.apiBase,
  };
  const launch = async () => {
    const b = PyBot.run(argv, env, 15_000, cwd);
    try {
      await b.saw(ready, "its commands registered");
    } catch (e) {
      await b.stop();
      throw e;
    }
    return b;
  };
  let bot: PyBot;
  try {
    bot = await launch();
  } catch (e) {
    await P.stop();
    throw e;
  }
  const botId = P.world.applications[app].bot_user_id;
  const newer = (m: { id: string }, after?: { id: string }) => !after || BigInt(m.id) > BigInt(after.id);
  const get = async (path: string) => {
    const res = await fetch(`${P.restBase}${path}`, { headers: { Authorization: `Bot ${P.tokenOf(app)}` } });
    return res.json();
  };
  const self: FrameworkBot = {
    P,
    bot,
    get,
    restart: async () => {
      await self.bot.stop();
      self.bot = await launch();
      return self.bot;
    },
    botSays: (channel, match, after) =>
      P.waitFor(
        async () =>
          (await P.messages(`Home/${channel}`, { limit: 50 })).reverse().find((m) => m.author.id === botId && newer(m, after) && match(m)),
        { timeoutMs: 15_000 },
      ),
    commands: (scope) => {
      const appId = P.world.applications[app].id;
      return get(
        scope === "global" ? `/applications/${appId}/commands` : `/applications/${appId}/guilds/${P.world.guilds.Home.id}/commands`,
      );
    },
    stop: async () => {
      await self.bot.stop();
      await P.stop();
    },
  };
  return self;
}
