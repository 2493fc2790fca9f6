/**
 * A hobby bot developer's bench: one server (Lab) where Alice owns the place, Bob is a
 * plain member, and a real discord.js 14 bot ("Gizmo") is installed; the browser tests of
 * bot-*.test.ts talk to the bot as people do. `watch` records what a person would never
 * want to see behind the page: 5xx answers, page errors and console errors.
 */
import { expect } from "bun:test";
import { Client, GatewayIntentBits, type ApplicationCommandData } from "discord.js";
import type { Page } from "playwright-core";
import { serve, type Served } from "./support";
import type { Config } from "../../src/config";

export interface Bench {
  s: Served;
  bot: Client;
}

/**
 * `prepare` runs on the served world before the bot signs in (what GUILD_CREATE should
 * carry); `config` overrides the test config (a small file limit, to be met cheaply).
 */
export async function bench(
  commands: ApplicationCommandData[] = [],
  prepare?: (s: Served) => Promise<unknown>,
  config: Partial<Config> = {},
): Promise<Bench> {
  const s = serve(
    {
      users: [
        { name: "alice", global_name: "Alice" },
        { name: "bob", global_name: "Bob" },
      ],
      guilds: [
        {
          name: "Lab",
          owner: "alice",
          members: ["bob"],
          roles: [{ name: "Helpers", members: ["bob"], color: 0x23a559 }],
          channels: [{ name: "general" }, { name: "widgets" }],
        },
      ],
      applications: [
        {
          name: "Gizmo",
          owner: "alice",
          intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT", "DIRECT_MESSAGES"],
          approved_privileged: ["MESSAGE_CONTENT"],
          install: ["Lab"],
        },
      ],
    },
    config,
  );
  await prepare?.(s);
  const bot = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
      GatewayIntentBits.DirectMessages,
    ],
    rest: { api: `${s.base}/api` },
  });
  const ready = new Promise((r) => bot.once("clientReady", r));
  await bot.login(s.world.applications.Gizmo.token);
  await ready;
  if (commands.length) await bot.application!.commands.set(commands, s.world.guilds.Lab.id);
  return { s, bot };
}

export interface Watched {
  /** Every 5xx answer, page error, console error and unhandled rejection seen so far. */
  problems: string[];
  /** Fails the test when anything went wrong behind the page. */
  clean(): void;
}

export function watch(page: Page): Watched {
  const problems: string[] = [];
  // A refused request is the console error "Failed to load resource"; these name which one.
  const refused: string[] = [];
  page.on("response", (r) => {
    const what = `${r.status()} ${r.request().method()} ${r.url()}`;
    if (r.status() >= 500) problems.push(what);
    else if (r.status() >= 400) refused.push(what);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  return {
    problems,
    clean: () => expect({ problems, refused: problems.length ? refused : [] }).toEqual({ problems: [], refused: [] }),
  };
}
