/**
 * The discord.js guide's bot (test/compat/bots/guide_js: discordjs.guide's command and event
 * handlers, its deploy-commands.js, and a command file per page of the guide) run under node
 * against a Parley of its own, pointed at it only by `rest: { api }` (config.js). The
 * people around it are played through the harness.
 */
import { join } from "node:path";
import { INTENTS, NON_PRIVILEGED_INTENTS } from "../../src/core";
import { startParley, type RunningParley } from "../../src/testing";
import type { HarnessMessage } from "../../src/testing/wire-types";
import { BOTS, PyBot } from "./support";

export const GUIDE = join(BOTS, "guide_js");
const NODE = Bun.which("node");

/**
 * Alice owns the server; bob is a moderator (kick and ban, not an administrator); the bot's
 * role sits above Member and the moderators so it may grant the one and act on the other.
 * The first channel is the server's system channel (the welcome messages go there).
 */
export const GUIDE_WORLD = {
  users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }, { name: "dave" }, { name: "erin" }, { name: "frank" }],
  guilds: [
    {
      name: "Guide",
      owner: "alice",
      members: ["bob", "carol", "dave", "erin"],
      roles: [
        { name: "Member", permissions: [] },
        { name: "Mods", permissions: ["KICK_MEMBERS", "BAN_MEMBERS"], members: ["bob"] },
        {
          name: "Keeper",
          permissions: [
            "KICK_MEMBERS",
            "BAN_MEMBERS",
            "MANAGE_ROLES",
            "MANAGE_CHANNELS",
            "MANAGE_MESSAGES",
            "MANAGE_EXPRESSIONS",
            "VIEW_AUDIT_LOG",
            "SEND_MESSAGES",
          ],
          members: ["GuideBot"],
        },
      ],
      channels: [{ name: "general" }, { name: "mod-log" }, { name: "quiz" }, { name: "react" }, { name: "tidy" }, { name: "quiet" }],
    },
    { name: "Annex", owner: "alice", members: ["bob"], channels: [{ name: "lobby" }] },
  ],
  applications: [
    {
      name: "GuideBot",
      owner: "alice",
      intents:
        NON_PRIVILEGED_INTENTS |
        INTENTS.GUILD_MEMBERS |
        INTENTS.MESSAGE_CONTENT |
        INTENTS.GUILD_MESSAGES |
        INTENTS.GUILD_MESSAGE_REACTIONS |
        INTENTS.DIRECT_MESSAGES,
      approved_privileged: ["GUILD_MEMBERS", "MESSAGE_CONTENT"],
      install: ["Guide"],
    },
  ],
};

export interface Guide {
  P: RunningParley;
  bot: PyBot;
  /** Runs deploy-commands.js (guild commands, or --global) and answers what it printed. */
  deploy(global?: boolean): Promise<string>;
  /** Runs one of the guide's scripts (deploy-commands.js, delete-commands.js) and answers what it printed. */
  script(file: string, args?: string[]): Promise<string>;
  /** The bot's messages in a channel of the server after `after`, oldest first. */
  botSays(channel: string, match: (m: HarnessMessage) => boolean, after?: { id: string }): Promise<HarnessMessage>;
  /** A bot API GET with the bot's token. */
  botGet(path: string): Promise<any>;
  /** The internal id of a snowflake (for the people's API). */
  uuid(flake: string): string;
  stop(): Promise<void>;
}

function env(P: RunningParley): Record<string, string> {
  return {
    DISCORD_TOKEN: P.tokenOf("GuideBot"),
    CLIENT_ID: P.world.applications.GuideBot.id,
    GUILD_ID: P.world.guilds.Guide.id,
    PARLEY_API: P.apiBase,
  };
}

/**
 * A Parley with the guide's world, the guild commands deployed, and the bot logged in;
 * `before` runs first, while the bot is not there (what it did is not in the bot's cache).
 */
export async function startGuide(before?: (P: RunningParley) => Promise<void>): Promise<Guide> {
  if (!NODE) throw new Error("node is missing: the guide's bot runs under node, as the guide has it");
  const node = NODE;
  const P = await startParley({ world: GUIDE_WORLD, strict: false });
  const script = async (file: string, args: string[] = []) => {
    const proc = Bun.spawn([node, join(GUIDE, file), ...args], { env: { ...process.env, ...env(P) }, stdout: "pipe", stderr: "pipe" });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), 60_000);
    });
    const done = await Promise.race([proc.exited, late]);
    clearTimeout(timer);
    if (done === "late") proc.kill();
    const out = await new Response(proc.stdout).text();
    if (done !== 0) throw new Error(`${file} ${done}: ${out}${await new Response(proc.stderr).text()}`);
    return out;
  };
  const deploy = (global = false) => script("deploy-commands.js", global ? ["--global"] : []);
  let bot: PyBot | undefined;
  try {
    await deploy();
    await before?.(P);
    bot = PyBot.run([node, join(GUIDE, "index.js")], env(P), 15_000);
    await bot.saw((l) => l.event === "ready", "ready");
  } catch (e) {
    // A half-started world would keep the run alive: end what was started.
    await bot?.stop();
    await P.stop();
    throw e;
  }
  const started = bot;
  const botId = P.world.applications.GuideBot.bot_user_id;
  const newer = (m: { id: string }, after?: { id: string }) => !after || BigInt(m.id) > BigInt(after.id);
  return {
    P,
    bot: started,
    deploy,
    script,
    botSays: (channel, match, after) =>
      P.waitFor(
        async () =>
          (await P.messages(`Guide/${channel}`, { limit: 100 }))
            .reverse()
            .find((m) => m.author.id === botId && newer(m, after) && match(m)),
        { timeoutMs: 15_000 },
      ),
    botGet: async (path) => {
      const res = await fetch(`${P.restBase}${path}`, { headers: { Authorization: `Bot ${P.tokenOf("GuideBot")}` } });
      return res.json();
    },
    uuid: (flake) => P.parley!.api.flakes.uuid(flake) as string,
    stop: async () => {
      await started.stop();
      await P.stop();
    },
  };
}

/** The buttons and selects of a message, flat, in row order. */
export const parts = (m: HarnessMessage): any[] => m.components.flatMap((row: any) => row.components);
