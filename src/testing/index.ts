/**
 * parley/testing: start Parley as a test double for a bot, act as the people around
 * it, and wait for what the bot did. Wraps the harness (docs/harness.md).
 *
 *   const parley = await startParley({ world });          // or attachParley(url)
 *   await parley.login(client, "EchoBot");                // discord.js, pointed here, ready
 *   await parley.as("alice").say("general", "!ping");
 *   await parley.waitForMessage("general", (m) => m.content === "pong");
 *   const r = await parley.as("alice").slash("general", "ping");   // r.state, r.response
 *   await parley.faults.gatewayClose("EchoBot");          // the bot should resume
 *   await parley.stop();
 *
 * It imports nothing of the server: in this process the server is loaded when started
 * (server.ts), so the SDK also runs under Node against a child process.
 */
import { startServer, type StartedServer } from "./server.js";
import { HarnessClient } from "./harness-client.js";
import { World } from "./world.js";
import { personActions } from "./person.js";
import { waiters } from "./waits.js";
import { faultActions } from "./faults.js";
import { interactionHelpers } from "./interactions.js";
import { Bots, strictViolations } from "./strict.js";
import { snapshotText } from "./transcript.js";
import { coverageText } from "./coverage.js";
import { cursorOf, explain, TestState, type SdkContext } from "./context.js";
import { moveTimers, ticks, type FakeTimers } from "./timers.js";
import type { Cursor, HarnessMessage, SeedAnswer, TranscriptEntry } from "./wire-types.js";
import type { RunningParley, StartOptions, WorldOptions } from "./types.js";

export * from "./types.js";
export { parleyHooks, type TestHooks, type HookOptions, type ParleyTest } from "./hooks.js";

/** Start a server (in this process under Bun, else `parley serve` as a child), seed the world. */
export async function startParley(opts: StartOptions = {}): Promise<RunningParley> {
  const server = await startServer(opts);
  try {
    return await connect(server, opts, server.parley ? "in-process" : "child-process");
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/**
 * Use a server started elsewhere (`parley serve --harness`, another job of the CI): the
 * same API; with a world it is reset and seeded; stop() leaves it running. One test run
 * per server: resets would collide.
 */
export async function attachParley(url: string, opts: WorldOptions = {}): Promise<RunningParley> {
  const baseUrl = url.replace(/\/+$/, "").replace(/\/api\/harness\/v1$/, "");
  const probe = await fetch(`${baseUrl}/api/harness/v1/cursor`).catch((e) => {
    throw new Error(`attachParley: nothing answers at ${baseUrl} (${e instanceof Error ? e.message : e})`);
  });
  if (!probe.ok) throw new Error(`attachParley: ${baseUrl} has no harness (${probe.status}): start it with parley serve --harness`);
  const server: StartedServer = { baseUrl, stop: async () => {} };
  return connect(server, opts, "attached");
}

// One closure over the SDK's parts, longer than 80 lines because the object it answers is
// the whole API, each member a line or two over the same state; split, it would only pass
// that state around.
async function connect(server: StartedServer, opts: WorldOptions, mode: RunningParley["mode"]): Promise<RunningParley> {
  const harness = new HarnessClient(`${server.baseUrl}/api/harness/v1`, () => server.ended?.());
  const gatewayUrl = server.gatewayUrl ?? ((await (await fetch(`${server.baseUrl}/api/v10/gateway`)).json()) as { url: string }).url;
  const world = new World();
  let timers: FakeTimers | null = opts.timers ?? null;
  const strict = opts.strict !== false;
  const ctx: SdkContext = {
    harness,
    world,
    ticks: ticks(harness, () => timers),
    test: new TestState(),
    strict,
    underTest: () => (opts.bot === undefined ? Object.keys(world.answer.applications) : ([] as string[]).concat(opts.bot)),
  };
  /** Every world this SDK seeds carries the options it was started with. */
  const withOptions = (doc: unknown) => ({
    ...(strict ? { interaction_deadline: true } : {}),
    ...(opts.referenceDms ? { reference_dms: true } : {}),
    ...(opts.startTime ? { start_time: opts.startTime } : {}),
    ...(doc as object),
  });
  const seed = async (doc: unknown) => world.remember(await harness.call<SeedAnswer>("POST", "/seed", withOptions(doc)));
  if (mode === "attached" && opts.world !== undefined) await harness.call("POST", "/reset");
  if (opts.world !== undefined) await seed(opts.world);

  const messages = (channel: string, o: { as?: string; limit?: number } = {}) => {
    const q = new URLSearchParams();
    if (o.as) q.set("as", o.as);
    if (o.limit) q.set("limit", String(o.limit));
    return harness.call<HarnessMessage[]>("GET", `/channels/${world.channelId(channel)}/messages${q.size ? `?${q}` : ""}`);
  };
  const transcriptPath = (app: string, after: Cursor | string | undefined, text: boolean) => {
    const q = new URLSearchParams();
    const at = cursorOf(after, "transcript");
    if (at) q.set("after", at);
    if (text) q.set("format", "text");
    return `/applications/${world.appId(app)}/transcript${q.size ? `?${q}` : ""}`;
  };
  // A write is seen before its answer is transcribed: let requests in flight be answered first.
  const settle = () => harness.call("POST", "/settle", { quiet_ms: 0, timeout_ms: 1000 });
  const transcript = async (app: string, o: { after?: Cursor | string } = {}) => {
    await settle();
    return harness.call<{ entries: TranscriptEntry[]; cursor: string }>("GET", transcriptPath(app, o.after, false));
  };
  const wait = waiters(ctx, messages);
  const interactions = interactionHelpers(ctx, wait.poll);
  const bots = new Bots(ctx);
  /** Until the server has seen the application's sessions end (stopBots waits for it): at most 10 s. */
  const sessionsEnded = (app: string) =>
    wait.poll(
      `stopBots(${app})`,
      async () =>
        !(await harness.call<{ connected: boolean }[]>("GET", `/applications/${world.appId(app)}/sessions`)).some((s) => s.connected),
      { timeoutMs: 10_000 },
      app,
    );
  const clock = async (body: Record<string, unknown>) => (await harness.call<{ now: string }>("POST", "/clock", body)).now;
  const cursor = () => harness.call<Cursor>("GET", "/cursor");

  return {
    mode,
    baseUrl: server.baseUrl,
    apiBase: `${server.baseUrl}/api`,
    restBase: `${server.baseUrl}/api/v10`,
    gatewayUrl,
    harnessUrl: harness.url,
    get world() {
      return world.answer;
    },
    parley: server.parley,
    tokenOf: (app) => world.tokenOf(app),
    channelId: (ref) => world.channelId(ref),
    as: (user) => personActions(ctx, interactions, user),
    messages,
    interaction: (id) => interactions.view(id),
    waitForInteraction: (id, state, o) => interactions.waitFor(id, ([] as (typeof state)[]).concat(state) as never, o),
    waitFor: wait.waitFor,
    waitForMessage: wait.waitForMessage,
    waitForEvent: wait.waitForEvent,
    waitForBot: wait.waitForBot,
    sessions: (app) => harness.call("GET", `/applications/${world.appId(app)}/sessions`),
    cursor,
    faults: faultActions(harness, world),
    transcript,
    transcriptText: async (app, o = {}) => (await settle(), harness.text(transcriptPath(app, o.after, true))),
    async transcriptSnapshot(app, o = {}) {
      return snapshotText((await transcript(app, o)).entries, server.baseUrl, o);
    },
    async advance(ms, o = {}) {
      // A zombie jump: the bot was silent through it, so its timers stay where they are.
      if (!timers || o.zombie) return clock({ advance_ms: ms, zombie: o.zombie });
      // The bot's timers move in steps with the server's, each step left to settle, so what
      // a timer starts (a heartbeat, a message) happens at about its own time.
      let now = "";
      // Ten seconds, or a hundredth of a long jump: a step moves every timer due in it, in order.
      const step = o.stepMs ?? Math.max(10_000, Math.ceil(ms / 100));
      for (let left = ms; left > 0 || !now; left -= step) {
        const d = Math.min(step, Math.max(0, left));
        now = await clock({ advance_ms: d });
        await moveTimers(timers, d);
        // A request a timer started can take a moment to reach the server on a busy machine.
        await harness.call("POST", "/settle", { quiet_ms: 20, timeout_ms: 2000 });
      }
      return now;
    },
    useTimers(t) {
      // Bun's fake timers stop every timer of the process, the server's among them: its long
      // polls and /settle would never answer, and the test would hang in advance().
      if (t && server.stoppedByFakeTimers)
        throw new Error(
          "useTimers: this server runs in the test's process, where fake timers would stop it too; start it with startParley({ timers }) (it then runs as a child process) or startParley({ inProcess: false })",
        );
      timers = t;
    },
    advanceClock: (ms) => clock({ advance_ms: ms }),
    setClock: (iso) => clock({ set: iso }),
    async rotate(app) {
      const { token } = await harness.call<{ token: string }>("POST", `/applications/${world.app(app).id}/rotate`);
      world.setToken(app, token);
      return token;
    },
    seed,
    async reset(doc) {
      await harness.call("POST", "/reset");
      world.forget();
      harness.lastAction = harness.lastSeen = undefined;
      if (doc !== undefined) await seed(doc);
    },
    async mark() {
      const at = await cursor();
      ctx.test.begin(at);
      harness.lastAction = at.events;
      return at;
    },
    allow: (a) => void ctx.test.allowed.push(a),
    watch: (source) => bots.watch(source),
    login: (client, app) =>
      bots.login(
        client,
        world.tokenOf(app),
        `${server.baseUrl}/api`,
        () => wait.waitForBot(app),
        (ms) => ctx.ticks.sleep(ms),
        async () => void (await sessionsEnded(app)),
      ),
    stopBots: () => bots.stop(),
    strictViolations: () => strictViolations(ctx, interactions),
    failureReport: () => explain(ctx, ctx.underTest(), ctx.test.mark?.transcript),
    coverage: () => harness.call("GET", "/coverage"),
    coverageReport: async () => coverageText(await harness.call("GET", "/coverage")),
    harness: (method, path, body) => harness.call(method, path, body),
    async stop() {
      await bots.stop();
      await server.stop();
    },
  };
}
