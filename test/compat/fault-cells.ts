/**
 * The `fault-*` rows of the compatibility matrix, one definition for every library: a
 * library's matrix file hands over how to start its bot (an unmodified bot that answers
 * "!echo <text>" with <text>), and the harness's faults (docs/harness.md) break the
 * gateway and the bot API under it. What the library did is read back from Parley's
 * transcript of the bot, which every library shares.
 *
 * Each cell has its own server and bot, so the cells run concurrently: most of their
 * time is a library's own waiting (reconnect delays, retry_after). The servers' heartbeat
 * interval is 1.5 s (test mode), so a zombied connection is noticed within seconds (not
 * 1 s: discordeno budgets its gateway sends as 120 a minute minus two per heartbeat,
 * which leaves it none at 1 s, and it spins).
 *
 * A cell bounds what the library can do, since a library that reconnects without backoff
 * (discordeno does) can otherwise open thousands of sockets a second until the process
 * runs out of files: every fault ends by itself; a cell whose bot identifies or resumes
 * more than MAX_CONNECTS times fails at once; and the bot must be stopped, with nothing
 * left connected or connecting, before its server stops.
 */
import { describe, expect } from "bun:test";
import { declined, NOT_SUPPORTED, scenario, type Library, type ScenarioId } from "./matrix";
import { liveSessions, startMatrix, until, type MatrixServer } from "./bots/js-world";
import type { TranscriptEntry } from "../../src/testing";

export interface FaultBot {
  /** What the library raised when an echo could not be sent (the not-supported cells check it). */
  errors: unknown[];
  stop(): Promise<void>;
}

export interface FaultLibrary {
  lib: Library;
  /** Start the bot as FullBot on `m`; resolves once the library says it is ready. */
  start(m: MatrixServer): Promise<FaultBot>;
  /**
   * How the REST fault cells make the bot send, when not by asking it "!echo": a library
   * whose retries only work outside this process sends from there; `ok` is whether the
   * library's send resolved.
   */
  send?(m: MatrixServer, channelId: string, content: string): Promise<{ ok: boolean }>;
}

const APP = "FullBot";
const SENDS = "/channels/{channel_id}/messages";
const WAIT = { timeoutMs: 15_000 };
const HEARTBEAT_MS = 1500;
// Room for a library's start-up on a loaded machine (test/compat/support.ts STARTUP_MS) and the cell itself.
const CELL_MS = 100_000;
/**
 * ACKs the zombie cell drops per session: most libraries notice one; discord.py notices
 * silence longer than its heartbeat_timeout (7 s in its fault bot), five heartbeats here.
 * Ten leave room, and the fault still ends by itself.
 */
const ZOMBIE_DROPS = 10;
/** IDENTIFYs and RESUMEs a cell's bot may send: the busiest cell needs a handful. */
const MAX_CONNECTS = 20;

type RestEntry = Extract<TranscriptEntry, { kind: "rest" }>;

/** One cell's server and bot, and what the cells ask of them. */
class Stage {
  private constructor(
    readonly fl: FaultLibrary,
    readonly m: MatrixServer,
    readonly bot: FaultBot,
  ) {}

  /** A server and a live bot for `fn`, both stopped afterwards whatever happens. */
  static async run(fl: FaultLibrary, fn: (s: Stage) => Promise<void>): Promise<void> {
    const m = await startMatrix({ heartbeatIntervalMs: HEARTBEAT_MS });
    let bot: FaultBot | undefined;
    const watch = { on: true };
    try {
      bot = await fl.start(m);
      await m.sdk.waitForBot(APP, WAIT);
      const stage = new Stage(fl, m, bot);
      await Promise.race([fn(stage), stage.noStorm(await stage.cursor(), watch)]);
    } finally {
      watch.on = false;
      try {
        if (bot) await Stage.stopped(m, bot);
      } finally {
        await m.sdk.stop();
      }
    }
  }

  /** Identifies and resumes since `from` (each a new socket). */
  private async connects(from: string): Promise<number> {
    return (await this.since(from)).filter((e) => e.kind === "gateway" && e.direction === "in" && (e.op === 2 || e.op === 6)).length;
  }

  /** Rejects once the bot has connected more than MAX_CONNECTS times: a storm fails its cell now, not at the file's deadline. */
  private async noStorm(from: string, watch: { on: boolean }): Promise<never> {
    for (;;) {
      await Bun.sleep(250);
      if (!watch.on) return new Promise<never>(() => {});
      const n = await this.connects(from).catch(() => 0);
      if (n > MAX_CONNECTS)
        throw new Error(`${this.fl.lib} identified or resumed ${n} times in one cell (at most ${MAX_CONNECTS}): a reconnect storm`);
    }
  }

  /**
   * Stop the bot and check it stopped: no session of it connected, and no new socket within
   * a heartbeat interval (a library still reconnecting makes one at once). One that does
   * not stop is refused for good (its token rotated) before its server goes, so that it
   * does not reconnect without end to a server that is not there.
   */
  private static async stopped(m: MatrixServer, bot: FaultBot): Promise<void> {
    const from = (await m.sdk.transcript(APP)).cursor;
    await bot.stop();
    try {
      await until("the library's sessions closed", () => liveSessions(m, APP).length === 0, 5000);
      await Bun.sleep(HEARTBEAT_MS);
      const again = (await m.sdk.transcript(APP, { after: from })).entries.filter(
        (e) => e.kind === "gateway" && e.direction === "in" && (e.op === 2 || e.op === 6),
      );
      if (again.length) throw new Error(`the library connected again after it was stopped (${again.length} times)`);
      expect(liveSessions(m, APP)).toEqual([]);
    } catch (e) {
      await m.sdk.rotate(APP);
      throw e;
    }
  }

  get botId() {
    return this.m.sdk.world.applications[APP].bot_user_id;
  }

  async cursor(): Promise<string> {
    return (await this.m.sdk.transcript(APP)).cursor;
  }

  async since(cursor: string): Promise<TranscriptEntry[]> {
    return (await this.m.sdk.transcript(APP, { after: cursor })).entries;
  }

  /** The bot's sends (POST messages) among transcript entries. */
  static sends(entries: TranscriptEntry[]): RestEntry[] {
    return entries.filter((e): e is RestEntry => e.kind === "rest" && e.method === "POST" && e.route === SENDS);
  }

  /** A person asks for an echo; the bot's answer, once it is in the channel. */
  async echo(text: string) {
    await this.m.sdk.as("bob").say("general", `!echo ${text}`);
    return this.landed(text);
  }

  landed(text: string) {
    return this.m.sdk.waitForMessage("general", (x) => x.content === text && x.author.id === this.botId, WAIT);
  }

  /** The bot sends `text` through the library (its echo, or the library's own send). */
  async send(text: string) {
    if (!this.fl.send) return this.echo(text);
    expect(await this.fl.send(this.m, this.m.sdk.channelId("general"), text)).toEqual({ ok: true });
    return this.landed(text);
  }

  /** The library's send of `text` fails: it gave up and said so. */
  async sendFails(text: string) {
    if (this.fl.send) return expect(await this.fl.send(this.m, this.m.sdk.channelId("general"), text)).toEqual({ ok: false });
    const errors = this.bot.errors.length;
    await this.m.sdk.as("bob").say("general", `!echo ${text}`);
    await until("the library's error", () => this.bot.errors.length > errors, 15_000);
  }
}

export function faultCells(fl: FaultLibrary): void {
  const cell = (id: ScenarioId, what: string, fn: (s: Stage) => Promise<void>) => {
    if (!NOT_SUPPORTED[fl.lib]?.[id]) scenario.concurrent(fl.lib, id, what, () => Stage.run(fl, fn), CELL_MS);
  };

  describe(`${fl.lib} under harness faults`, () => {
    cell("fault-close", "gatewayClose (4000): the same session resumes and answers a message said while it was away", async (s) => {
      const [before] = liveSessions(s.m, APP);
      await s.m.sdk.faults.gatewayClose(APP);
      await s.m.sdk.as("bob").say("general", "!echo said while closed");
      await s.landed("said while closed");
      const after = await until("the session live again", () => (liveSessions(s.m, APP).length ? liveSessions(s.m, APP) : null));
      expect(after.map((x) => x.session_id)).toEqual([before.session_id]);
    });

    cell("fault-zombie", "dropHeartbeatAcks: the library notices the missing ACKs and reconnects; it answers afterwards", async (s) => {
      const from = await s.cursor();
      const fault = await s.m.sdk.faults.dropHeartbeatAcks(APP, ZOMBIE_DROPS);
      const back = await until(
        "a RESUME or IDENTIFY on a new socket",
        async () => (await s.since(from)).find((e) => e.kind === "gateway" && e.direction === "in" && (e.op === 6 || e.op === 2)),
        20_000,
      );
      // Gone already when the library needed every dropped ACK to notice.
      await s.m.sdk.faults.delete(fault.id).catch(() => {});
      expect([6, 2]).toContain((back as { op: number }).op);
      await s.echo("back from the zombie");
    });

    for (const status of [500, 502] as const) {
      const id: ScenarioId = status === 500 ? "fault-500" : "fault-502";
      const armed = async (s: Stage) => {
        const from = await s.cursor();
        await s.m.sdk.faults.rest({ route: SENDS, method: "POST", status, app: APP });
        return from;
      };
      cell(id, `a ${status} on the bot's send: the library sends again and the message lands`, async (s) => {
        const from = await armed(s);
        await s.send(`after a ${status}`);
        expect(Stage.sends(await s.since(from)).map((e) => e.status)).toEqual([status, 200]);
      });
      if (NOT_SUPPORTED[fl.lib]?.[id])
        declined.concurrent(
          fl.lib,
          id,
          `a ${status} on the bot's send is not retried: the send rejects and nothing lands`,
          () =>
            Stage.run(fl, async (s) => {
              const from = await armed(s);
              await s.sendFails(`lost to a ${status}`);
              expect(Stage.sends(await s.since(from)).map((e) => e.status)).toEqual([status]);
              expect((await s.m.sdk.messages("general")).some((x) => x.content === `lost to a ${status}`)).toBe(false);
            }),
          CELL_MS,
        );
    }

    for (const global of [false, true]) {
      const id: ScenarioId = global ? "fault-global-429" : "fault-429";
      cell(
        id,
        `a ${global ? "global " : ""}429 with retry_after 1 s: the library waits at least that long, then the message lands`,
        async (s) => {
          const from = await s.cursor();
          await s.m.sdk.faults.rest({ route: SENDS, method: "POST", status: 429, retryAfter: 1, global, app: APP });
          await s.send(global ? "after a global 429" : "after a 429");
          const got = Stage.sends(await s.since(from));
          expect(got.map((e) => e.status)).toEqual([429, 200]);
          // Parley's own clock stamps both: the retry came no sooner than retry_after (allowing ms rounding).
          expect(Date.parse(got[1].at) - Date.parse(got[0].at)).toBeGreaterThanOrEqual(990);
        },
      );
    }

    cell("fault-invalid-session", "invalidSession: op 9, then a fresh IDENTIFY; the new session answers", async (s) => {
      const [before] = liveSessions(s.m, APP);
      const from = await s.cursor();
      await s.m.sdk.faults.invalidSession(APP);
      await until("a new live session", () => liveSessions(s.m, APP).find((x) => x.session_id !== before.session_id), 20_000);
      const frames = (await s.since(from))
        .filter((e) => e.kind === "gateway")
        .map((e) => `${(e as { direction: string }).direction} ${(e as { op: number }).op}`);
      expect(frames).toContain("out 9");
      expect(frames).toContain("in 2");
      await s.echo("after the invalid session");
    });
  });
}
