/**
 * parley/testing: start Parley as a test double for a bot, act as the people around
 * it, and wait for what the bot did. Wraps the harness (docs/harness.md).
 *
 *   const parley = await startParley({ world });
 *   // point the bot at parley.apiBase with parley.tokenOf("EchoBot")
 *   await parley.as("alice").say("general", "!ping");
 *   await parley.waitForMessage("general", (m) => m.content === "pong");
 *   await parley.faults.gatewayClose("EchoBot");   // the bot should resume
 *   await parley.stop();
 */
import { createParley, type Parley } from "../app";
import { testConfig } from "../config";
import type { SeedAnswer } from "../harness/seed";
import { spawnServer } from "./server";
import { HarnessClient } from "./harness-client";
import { World } from "./world";
import { personActions } from "./person";
import { waiters } from "./waits";
import { faultActions } from "./faults";
import type { HarnessMessage, RunningParley, StartOptions } from "./types";

export type { SeedAnswer } from "../harness/seed";
export * from "./types";

export async function startParley(opts: StartOptions = {}): Promise<RunningParley> {
  const server = await startServer(opts);
  const harness = new HarnessClient(`${server.baseUrl}/api/harness/v1`);
  const gw = (await (await fetch(`${server.baseUrl}/api/v10/gateway`)).json()) as { url: string };
  const world = new World();
  try {
    if (opts.world !== undefined) world.remember(await harness.call<SeedAnswer>("POST", "/seed", opts.world));
  } catch (e) {
    await server.stop();
    throw e;
  }
  const messages = (channel: string, o: { as?: string; limit?: number } = {}) => {
    const q = new URLSearchParams();
    if (o.as) q.set("as", o.as);
    if (o.limit) q.set("limit", String(o.limit));
    return harness.call<HarnessMessage[]>("GET", `/channels/${world.channelId(channel)}/messages${q.size ? `?${q}` : ""}`);
  };
  const appRef = (app: string) => (/^[0-9]{17,20}$/.test(app) ? app : world.app(app).id);
  const transcriptText = (app: string, o: { after?: string } = {}) =>
    harness.text(`/applications/${appRef(app)}/transcript?format=text${o.after ? `&after=${encodeURIComponent(o.after)}` : ""}`);
  const wait = waiters(harness, world, messages, (app) => explain(app ? [app] : underTest(opts.bot, world), transcriptText));
  return {
    baseUrl: server.baseUrl,
    apiBase: `${server.baseUrl}/api`,
    restBase: `${server.baseUrl}/api/v10`,
    gatewayUrl: gw.url,
    harnessUrl: harness.url,
    get world() {
      return world.answer;
    },
    parley: server.parley,
    tokenOf: (app) => world.tokenOf(app),
    channelId: (ref) => world.channelId(ref),
    as: (user) => personActions(harness, world, user),
    messages,
    ...wait,
    faults: faultActions(harness, world),
    transcript: (app, o = {}) => harness.call("GET", `/applications/${appRef(app)}/transcript${o.after ? `?after=${encodeURIComponent(o.after)}` : ""}`),
    transcriptText,
    advanceClock: async (ms) => (await harness.call<{ now: string }>("POST", "/clock", { advance_ms: ms })).now,
    setClock: async (iso) => (await harness.call<{ now: string }>("POST", "/clock", { set: iso })).now,
    async rotate(app) {
      const { token } = await harness.call<{ token: string }>("POST", `/applications/${world.app(app).id}/rotate`);
      world.setToken(app, token);
      return token;
    },
    seed: async (doc) => world.remember(await harness.call<SeedAnswer>("POST", "/seed", doc)),
    async reset() {
      await harness.call("POST", "/reset");
      world.forget();
      wait.forgetCursor();
    },
    harness: (method, path, body) => harness.call(method, path, body),
    stop: server.stop,
  };
}

/** The bots under test: the ones named, else every application of the world. */
function underTest(bot: string | string[] | undefined, world: World): string[] {
  return bot === undefined ? Object.keys(world.answer.applications) : ([] as string[]).concat(bot);
}

/** The last lines of each bot's transcript, for the message of a wait that timed out. */
async function explain(apps: string[], text: (app: string) => Promise<string>, lines = TRANSCRIPT_LINES): Promise<string> {
  let out = "";
  for (const app of apps) {
    const all = (await text(app).catch(() => "")).trimEnd();
    if (!all) continue;
    const got = all.split("\n");
    out += `\n\nTranscript of ${app} (${got.length > lines ? `last ${lines} of ${got.length}` : got.length} entries):\n${got.slice(-lines).join("\n")}`;
  }
  return out;
}

/** How much of a transcript a timed-out wait shows. */
const TRANSCRIPT_LINES = 60;

/** The server under test: in this process, or `parley serve` as a child process. */
async function startServer(opts: StartOptions): Promise<{ baseUrl: string; parley?: Parley; stop: () => Promise<void> }> {
  if (opts.inProcess === false) return spawnServer();
  const parley = createParley(testConfig({ ...opts.config, harness: true }));
  parley.listen();
  return { baseUrl: parley.api.urls.base, parley, stop: () => parley.stop() };
}
