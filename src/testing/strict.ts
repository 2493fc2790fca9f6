/**
 * Strict mode (docs/harness.md "Strict mode"): what a test that passed its assertions may
 * still have got wrong, found after it: an interaction the bot never answered (or answered
 * too late for the 3-second rule), an error the bot's library raised, and a 4xx the bot
 * got without the test saying it should (429s aside: libraries wait them out by design,
 * and the transcript shows them). Also the bots a test logs in, watched and stopped here.
 */
import type { AllowedAnswer, ErrorSource, LoginClient } from "./types.js";
import type { TranscriptEntry } from "./wire-types.js";
import type { SdkContext } from "./context.js";
import type { InteractionHelpers } from "./interactions.js";

/** Why an interaction was dropped, and what the test can do about it. */
const UNDELIVERED =
  "the application had no live gateway session when it ran, and the spec drops those (log the bot in first; after a fault, waitForBot)";

export async function strictViolations(ctx: SdkContext, interactions: InteractionHelpers): Promise<string[]> {
  if (!ctx.strict) return [];
  // A write is seen before its answer is transcribed: let requests in flight be answered first.
  await ctx.harness.call("POST", "/settle", { quiet_ms: 0, timeout_ms: 1000 });
  const transcripts = await transcriptsSinceMark(ctx);
  // An answer a latency fault held past the 3-second rule came late by the test's own doing.
  const delayed = (interaction: string) =>
    transcripts.some(({ entries }) =>
      entries.some((e) => e.kind === "rest" && e.delayed_by && e.path.startsWith(`/interactions/${interaction}/`)),
    );
  const out: string[] = [];
  for (const { id, what, delivered } of ctx.test.interactions) {
    if (delivered === false) {
      out.push(`${what} never reached the bot (interaction ${id}): ${UNDELIVERED}`);
      continue;
    }
    const v = await interactions.view(id).catch(() => null);
    // Expired with a response: answered in time, and later past its 15 minutes.
    if (!v || v.state === "deferred" || v.state === "responded" || (v.state === "expired" && (v.response || delayed(id)))) continue;
    out.push(
      v.state === "pending"
        ? `the bot never answered ${what} (interaction ${id} is still pending)`
        : `the bot did not answer ${what} in time (interaction ${id} expired with no response: the 3-second rule, or the bot was not connected)`,
    );
  }
  for (const e of ctx.test.errors) out.push(`the bot's library raised an error: ${describe(e)}`);
  for (const { app, entries } of transcripts) {
    for (const e of entries) {
      if (e.kind !== "rest" || e.status < 400 || e.status >= 500 || e.status === 429 || e.fault || lateByFault(e)) continue;
      if (ctx.test.allowed.some((a) => allows(a, e, app))) continue;
      out.push(
        `${app} got ${e.status} for ${e.method} ${e.path}: ${JSON.stringify(e.response)} (allow it with parley.allow({ status: ${e.status}, route: "${e.route}" }) if the bot expects it)`,
      );
    }
  }
  return out;
}

async function transcriptsSinceMark(ctx: SdkContext): Promise<{ app: string; entries: TranscriptEntry[] }[]> {
  const after = ctx.test.mark?.transcript;
  const out: { app: string; entries: TranscriptEntry[] }[] = [];
  for (const app of ctx.underTest()) {
    const id = ctx.world.answer.applications[app]?.id;
    if (!id) continue;
    const t = await ctx.harness.call<{ entries: TranscriptEntry[] }>(
      "GET",
      `/applications/${id}/transcript${after ? `?after=${after}` : ""}`,
    );
    out.push({ app, entries: t.entries });
  }
  return out;
}

/** "Unknown interaction" for an answer a latency fault held past the interaction's deadline. */
function lateByFault(e: Extract<TranscriptEntry, { kind: "rest" }>): boolean {
  return !!e.delayed_by && (e.response as { code?: number } | null)?.code === 10062;
}

function allows(a: AllowedAnswer, e: Extract<TranscriptEntry, { kind: "rest" }>, app: string): boolean {
  if (a.status !== e.status) return false;
  if (a.method && a.method.toUpperCase() !== e.method) return false;
  if (a.app && a.app !== app) return false;
  if (!a.route) return true;
  const want = a.route.replace(/^\/api\/v\d+(?=\/)/, "");
  return want.includes("{") ? sameTemplate(want, e.route) : want === e.path;
}

/** Templates match whatever their parameters are called. */
function sameTemplate(a: string, b: string): boolean {
  const norm = (t: string) => t.replace(/\{[^}]*\}/g, "{}");
  return norm(a) === norm(b);
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const at = ownFrame(e.stack);
    return `${e.name}: ${e.message}${at ? `\n      ${at}` : ""}`;
  }
  return typeof e === "string" ? e : JSON.stringify(e);
}

/**
 * Where the error was raised in the bot's own code: the first frame of its stack outside
 * node_modules and the runtime, so a bot with many handlers says which one threw.
 */
function ownFrame(stack: string | undefined): string | undefined {
  return stack
    ?.split("\n")
    .map((l) => l.trim())
    .find((l) => l.startsWith("at ") && !/node_modules|\(node:|^at node:|\(native|<anonymous>\)?$/.test(l));
}

/** The bots a test runs in its own process: their errors are the bot's, and they stop with the test. */
export class Bots {
  private readonly clients: LoginClient[] = [];
  /** Per client logged in: until the server has seen its session end. */
  private readonly ended = new Map<LoginClient, () => Promise<void>>();
  private readonly sources = new Map<ErrorSource, (e: unknown) => void>();
  private readonly unhandled = (e: unknown) => this.ctx.test.errors.push(e);
  private listening = false;

  constructor(private readonly ctx: SdkContext) {}

  watch(source: ErrorSource): void {
    if (this.sources.has(source)) return;
    const h = (e: unknown) => this.ctx.test.errors.push(e);
    source.on("error", h);
    this.sources.set(source, h);
    // An event handler's rejected promise is the bot's error too; in strict mode only, so
    // that without it nothing is swallowed.
    if (this.ctx.strict && !this.listening) {
      process.on("unhandledRejection", this.unhandled);
      this.listening = true;
    }
  }

  async login<C extends LoginClient>(
    client: C,
    token: string,
    apiBase: string,
    live: () => Promise<void>,
    sleep: (ms: number) => Promise<void>,
    ended: () => Promise<void>,
  ): Promise<C> {
    if (client.rest?.options) client.rest.options.api = apiBase;
    this.watch(client);
    this.clients.push(client);
    this.ended.set(client, ended);
    await client.login(token);
    for (let i = 0; client.isReady && !client.isReady(); i++) {
      if (i > 600) throw new Error("login: the client did not become ready within 15 s");
      await sleep(25);
    }
    await live();
    return client;
  }

  /**
   * Destroy every client, then wait until the server has seen each session end: a
   * library's destroy() returns when its own side is done, and on a loaded machine the
   * server could still count the bot live, so what the test did next met a bot that was gone.
   */
  async stop(): Promise<void> {
    const clients = this.clients.splice(0);
    for (const c of clients) await c.destroy();
    for (const c of clients)
      await this.ended
        .get(c)?.()
        .catch(() => {}); // a server already gone: nothing to wait for
    this.ended.clear();
    for (const [source, h] of this.sources) source.off?.("error", h);
    this.sources.clear();
    if (this.listening) process.off("unhandledRejection", this.unhandled);
    this.listening = false;
  }
}
