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
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { HarnessContext } from "./context";
import { DomainError } from "../core";
import { handler, readBody } from "./http";

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

type Ctx = { request: Request; params: Record<string, string> };

export function harnessClock(p: HarnessContext) {
  return new Elysia()
    .post("/clock", handler<Ctx>(async ({ request }) => {
      const body = await readBody(request, ClockBody);
      const target = "advance_ms" in body ? p.clock.now() + body.advance_ms : instant(body.set);
      if (!body.zombie && target > p.clock.now()) p.gateway.carryThrough(target);
      if ("advance_ms" in body) p.clock.advance(body.advance_ms);
      else p.clock.set(target);
      return { now: new Date(p.clock.now()).toISOString() };
    }))
    .get("/clock", handler<Ctx>(() => ({ now: new Date(p.clock.now()).toISOString(), virtual: p.clock.virtual })))
    .post("/settle", handler<Ctx>(async ({ request }) => {
      const body = await readBody(request, SettleBody);
      return { settled: await p.activity.quiet(body.quiet_ms ?? 5, body.timeout_ms ?? 2000) };
    }))
    .get("/cursor", handler<Ctx>(() => ({ events: String(p.events.cursor), transcript: String(p.transcripts.cursor) })));
}

function instant(iso: string): number {
  const at = Date.parse(iso);
  if (!Number.isFinite(at) || !/^\d{4}-\d{2}-\d{2}T/.test(iso)) throw DomainError.invalid("set", "Must be an ISO 8601 date-time", "DATE_TIME_INVALID");
  return at;
}
