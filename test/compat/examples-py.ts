/**
 * discord.py's own example bots (test/compat/bots/examples_py, each the upstream file with
 * only the lines that point it at Parley changed) run against one Parley per test file:
 * each example in a server of its own, so that one example's handlers never see another
 * one's messages, with its own application, intents and channels. Every bot starts at
 * once; the test acts as the people around it and reads what the bot did from the server.
 */
import { INTENTS, NON_PRIVILEGED_INTENTS } from "../../src/core";
import type { RunningParley } from "../../src/testing";
import type { HarnessMessage } from "../../src/testing/wire-types";
import { PyBot } from "./support";

export interface Example {
  /** The copy under test/compat/bots/examples_py, without `.py`; also the name of its server and application. */
  script: string;
  /** Its server's and application's name, when not the script's. */
  name?: string;
  /** The privileged intents the example asks for, approved for it (spec 5.8 needs an administrator's approval). */
  privileged?: ("GUILD_MEMBERS" | "MESSAGE_CONTENT")[];
  /** The application asks for the privileged intents, but no administrator approved them. */
  unapproved?: boolean;
  /** The server's channels (default: general); the first is its system channel. */
  channels?: { name: string; type?: 0 | 2 }[];
  /** Permissions of a role the bot holds in its server, beyond @everyone's. */
  botPermissions?: string[];
  /** Extra roles of the server. */
  roles?: { name: string }[];
  /** Members besides the owner alice (default: bob). */
  members?: string[];
  /** The example's constants, from the seeded world. */
  args?: (P: RunningParley) => string[];
}

/** The application (and server) name of an example: its script, with `/` as `_`. */
export const nameOf = (e: Example | string) => (typeof e === "string" ? e : (e.name ?? e.script)).replace(/\//g, "_");

/** A world with alice and bob (and carol, who is in no server) and one server and application per example. */
export function worldOf(examples: Example[]) {
  return {
    users: [{ name: "alice", admin: true }, { name: "bob" }, { name: "carol" }],
    guilds: examples.map((e) => ({
      name: nameOf(e),
      owner: "alice",
      members: e.members ?? ["bob"],
      channels: e.channels ?? [{ name: "general" }],
      roles: [
        ...(e.roles ?? []).map((r) => ({ name: r.name, permissions: [] })),
        ...(e.botPermissions ? [{ name: "Bot", permissions: e.botPermissions, members: [nameOf(e)] }] : []),
      ],
    })),
    applications: examples.map((e) => {
      const privileged = e.privileged ?? [];
      return {
        name: nameOf(e),
        owner: "alice",
        intents: privileged.reduce((all, p) => all | INTENTS[p], NON_PRIVILEGED_INTENTS),
        approved_privileged: e.unapproved ? [] : privileged,
        install: [nameOf(e)],
      };
    }),
  };
}

/** Start every example at once (the Python start-ups overlap); each answers once ready. */
export function startExamples(P: RunningParley, examples: Example[]): Record<string, PyBot> {
  const bots: Record<string, PyBot> = {};
  for (const e of examples) bots[nameOf(e)] = startExample(P, e);
  return bots;
}

export function startExample(P: RunningParley, e: Example): PyBot {
  const args = [P.baseUrl, P.gatewayUrl, P.tokenOf(nameOf(e)), ...(e.args?.(P) ?? [])];
  return PyBot.start(`examples_py/${e.script}.py`, args, 15_000, ["examples_py"]);
}

/** Wait until every bot but those named in `except` has reported discord.py's ready. */
export async function allReady(bots: Record<string, PyBot>, except: string[] = []): Promise<void> {
  const waited = Object.entries(bots).filter(([name]) => !except.includes(name));
  await Promise.all(waited.map(([, b]) => b.saw((l) => l.event === "ready", "ready")));
}

/** Helpers for one example's server: its channels, its bot, and what the bot posted after a message. */
export function exampleOf(P: RunningParley, e: Example | string) {
  const name = nameOf(e);
  const botId = () => P.world.applications[name].bot_user_id;
  const channel = (c = "general") => `${name}/${c}`;
  const newer = (m: { id: string }, after?: { id: string }) => !after || BigInt(m.id) > BigInt(after.id);
  return {
    name,
    botId,
    channel,
    guildId: () => P.world.guilds[name].id,
    channelId: (c = "general") => P.channelId(channel(c)),
    /** The bot's first message in `c` after `after` that satisfies `match` (newest-first listing, so the oldest match). */
    botSays: async (match: (m: HarnessMessage) => boolean, after?: { id: string }, c = "general", timeoutMs = 10_000) =>
      P.waitFor(
        async () =>
          (await P.messages(channel(c), { limit: 100 })).reverse().find((m) => m.author.id === botId() && newer(m, after) && match(m)),
        { timeoutMs },
      ),
    /** Every message of the bot in `c` after `after`, oldest first. */
    botMessages: async (after?: { id: string }, c = "general") =>
      (await P.messages(channel(c), { limit: 100 })).reverse().filter((m) => m.author.id === botId() && newer(m, after)),
    /** A bot API GET with the example's own token, as the reference would show it the bot. */
    botGet: async (path: string) => {
      const res = await fetch(`${P.restBase}${path}`, { headers: { Authorization: `Bot ${P.tokenOf(name)}` } });
      return { status: res.status, body: (await res.json()) as any };
    },
  };
}
