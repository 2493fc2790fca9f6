/**
 * Time as a test moves it (design/harness.md): POST /clock switches to the virtual clock
 * and jumps, and POST /settle waits until the bots have gone quiet, so an SDK that moves
 * a bot's own timers along with the server's can step both and let each step's work land.
 *
 * A jump keeps live gateway sessions alive: their bots' clocks move too (an SDK moves
 * timers it runs in-process; a bot heartbeating in real time loses nothing in a virtual
 * jump), so heartbeat deadlines count the jump as heartbeated through. `"zombie": true`
 * asks for the other reading: the bots said nothing in the skipped span, and every
 * deadline in it falls due (a 4000 close, then the session's expiry).
 */
import { Type } from "@sinclair/typebox";
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { settableInstant } from "../core";
import { route } from "./http";

const Zombie = Type.Optional(Type.Boolean());
export const ClockBody = Type.Union([
  Type.Object({ advance_ms: Type.Number({ minimum: 0, maximum: 10 * 365 * 86_400_000 }), zombie: Zombie }, { additionalProperties: false }),
  Type.Object({ set: Type.String({ maxLength: 64 }), zombie: Zombie }, { additionalProperties: false }),
]);

export const SettleBody = Type.Object(
  {
    /** How long the bots must have been quiet (no request in flight, no frame received), in real ms. */
    quiet_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    /** How long to wait for that at most, in real ms. */
    timeout_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 30_000 })),
  },
  { additionalProperties: false },
);

export function harnessClock(p: HarnessContext): Route<HarnessContext>[] {
  const now = () => new Date(p.clock.now()).toISOString();
  return [
    route({
      method: "POST",
      path: "/clock",
      caller: "harness",
      summary: "Advance or set the virtual clock; live sessions survive the jump unless zombie is true",
      body: ClockBody,
      handler: (x) => {
        const body = x.body();
        const target = "advance_ms" in body ? p.clock.now() + body.advance_ms : settableInstant("set", body.set);
        if (!body.zombie && target > p.clock.now()) p.gateway.carryThrough(target);
        if ("advance_ms" in body) p.clock.advance(body.advance_ms);
        else p.clock.set(target);
        return { now: now() };
      },
    }),
    route({
      method: "GET",
      path: "/clock",
      caller: "harness",
      summary: "The server's time, and whether the clock is virtual",
      handler: () => ({ now: now(), virtual: p.clock.virtual }),
    }),
    route({
      method: "POST",
      path: "/settle",
      caller: "harness",
      summary: "Wait until the bots are quiet: no request in flight, no frame received for quiet_ms",
      body: SettleBody,
      handler: async (x) => {
        const body = x.body();
        return { settled: await p.activity.quiet(body.quiet_ms ?? 5, body.timeout_ms ?? 2000) };
      },
    }),
    route({
      method: "GET",
      path: "/commits",
      caller: "harness",
      summary: "On a node sharing a Postgres database: the newest commit there, and up to which this node has heard every one",
      handler: () => {
        const c = p.commits();
        return { newest: c?.newest ?? null, heard: c?.heard ?? null };
      },
    }),
    route({
      method: "GET",
      path: "/cursor",
      caller: "harness",
      summary: "The event log's and the transcripts' cursors now, for reading only what comes next",
      handler: () => ({ events: String(p.events.cursor), transcript: String(p.transcripts.cursor) }),
    }),
  ];
}
