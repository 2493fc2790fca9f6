/**
 * The `fault-*` rows of the compatibility matrix, one definition for every library: a
 * library's matrix file hands over how to start its bot (an unmodified bot that answers
 * "!echo <text>" with <text>), and the harness's faults (docs/harness.md) break the
 * gateway and the bot API under it. What the library did is read back from Parley's
 * transcript of the bot, which every library shares.
 *
 * One server per library, with heartbeat_interval 1.5 s (test mode), so a zombied
 * connection is noticed within seconds (not 1 s: discordeno budgets its gateway sends as
 * 120 per minute minus two per heartbeat, which leaves it none at 1 s and spins); the
 * cells run in order on one bot, the invalid session last since it ends the session the
 * others keep.
 */
import { afterAll, beforeAll, describe, expect } from "bun:test";
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

export function faultCells(fl: FaultLibrary): void {
  let m: MatrixServer;
  let bot: FaultBot;

  const cell = (id: ScenarioId, what: string, fn: () => Promise<void>) =>
    NOT_SUPPORTED[fl.lib]?.[id] ? undefined : scenario(fl.lib, id, what, fn, 40_000);
  const botId = () => m.sdk.world.applications[APP].bot_user_id;
  const cursor = async () => (await m.sdk.transcript(APP)).cursor;
  const since = async (c: string) => (await m.sdk.transcript(APP, { after: c })).entries;
  const sends = (entries: TranscriptEntry[]) =>
    entries.filter((e): e is Extract<TranscriptEntry, { kind: "rest" }> => e.kind === "rest" && e.method === "POST" && e.route === SENDS);
  /** A person asks for an echo; the bot's answer, once it is in the channel. */
  const echo = async (text: string) => {
    await m.sdk.as("bob").say("general", `!echo ${text}`);
    return m.sdk.waitForMessage("general", (x) => x.content === text && x.author.id === botId(), WAIT);
  };
  /** The bot sends `text` through the library (its echo, or the library's own send). */
  const send = async (text: string) => {
    if (!fl.send) return echo(text);
    expect(await fl.send(m, m.sdk.channelId("general"), text)).toEqual({ ok: true });
    return m.sdk.waitForMessage("general", (x) => x.content === text && x.author.id === botId(), WAIT);
  };
  /** The library's send of `text` fails (it gave up); true once the library says so. */
  const sendFails = async (text: string) => {
    if (fl.send) return expect(await fl.send(m, m.sdk.channelId("general"), text)).toEqual({ ok: false });
    const errors = bot.errors.length;
    await m.sdk.as("bob").say("general", `!echo ${text}`);
    await until("the library's error", () => bot.errors.length > errors, 15_000);
  };

  describe(`${fl.lib} under harness faults`, () => {
    beforeAll(async () => {
      m = await startMatrix({ heartbeatIntervalMs: HEARTBEAT_MS });
      bot = await fl.start(m);
      await m.sdk.waitForBot(APP, WAIT);
    }, 30_000);

    afterAll(async () => {
      await bot?.stop();
      await m?.sdk.stop();
    });

    cell("fault-close", "gatewayClose (4000): the same session resumes and answers a message said while it was away", async () => {
      const [before] = liveSessions(m, APP);
      await m.sdk.faults.gatewayClose(APP);
      await m.sdk.as("bob").say("general", "!echo said while closed");
      await m.sdk.waitForMessage("general", (x) => x.content === "said while closed" && x.author.id === botId(), WAIT);
      const after = await until("the session live again", () => (liveSessions(m, APP).length ? liveSessions(m, APP) : null));
      expect(after.map((s) => s.session_id)).toEqual([before.session_id]);
    });

    cell("fault-zombie", "dropHeartbeatAcks: the library notices the missing ACKs and reconnects; it answers afterwards", async () => {
      const from = await cursor();
      const fault = await m.sdk.faults.dropHeartbeatAcks(APP, 1000);
      const back = await until(
        "a RESUME or IDENTIFY on a new socket",
        async () => (await since(from)).find((e) => e.kind === "gateway" && e.direction === "in" && (e.op === 6 || e.op === 2)),
        20_000,
      );
      await m.sdk.faults.delete(fault.id);
      expect([6, 2]).toContain((back as { op: number }).op);
      await echo("back from the zombie");
    });

    for (const status of [500, 502] as const) {
      const id: ScenarioId = status === 500 ? "fault-500" : "fault-502";
      const armed = async () => {
        const from = await cursor();
        await m.sdk.faults.rest({ route: SENDS, method: "POST", status, app: APP });
        return from;
      };
      cell(id, `a ${status} on the bot's send: the library sends again and the message lands`, async () => {
        const from = await armed();
        await send(`after a ${status}`);
        expect(sends(await since(from)).map((e) => e.status)).toEqual([status, 200]);
      });
      if (NOT_SUPPORTED[fl.lib]?.[id])
        declined(fl.lib, id, `a ${status} on the bot's send is not retried: the send rejects and nothing lands`, async () => {
          const from = await armed();
          await sendFails(`lost to a ${status}`);
          expect(sends(await since(from)).map((e) => e.status)).toEqual([status]);
          expect((await m.sdk.messages("general")).some((x) => x.content === `lost to a ${status}`)).toBe(false);
        });
    }

    for (const global of [false, true]) {
      const id: ScenarioId = global ? "fault-global-429" : "fault-429";
      cell(id, `a ${global ? "global " : ""}429 with retry_after 1 s: the library waits at least that long, then the message lands`, async () => {
        const from = await cursor();
        await m.sdk.faults.rest({ route: SENDS, method: "POST", status: 429, retryAfter: 1, global, app: APP });
        await send(global ? "after a global 429" : "after a 429");
        const got = sends(await since(from));
        expect(got.map((e) => e.status)).toEqual([429, 200]);
        // Parley's own clock stamps both: the retry came no sooner than retry_after (allowing ms rounding).
        expect(Date.parse(got[1].at) - Date.parse(got[0].at)).toBeGreaterThanOrEqual(990);
      });
    }

    cell("fault-invalid-session", "invalidSession: op 9, then a fresh IDENTIFY; the new session answers", async () => {
      const [before] = liveSessions(m, APP);
      const from = await cursor();
      await m.sdk.faults.invalidSession(APP);
      await until("a new live session", () => liveSessions(m, APP).find((s) => s.session_id !== before.session_id), 20_000);
      const frames = (await since(from)).filter((e) => e.kind === "gateway").map((e) => `${(e as { direction: string }).direction} ${(e as { op: number }).op}`);
      expect(frames).toContain("out 9");
      expect(frames).toContain("in 2");
      await echo("after the invalid session");
    });
  });
}
