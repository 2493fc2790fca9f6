/**
 * The test harness (design/harness.md), mounted at /api/harness/v1 only in test mode.
 * It lets a CI pipeline seed a world, act as the people around a bot, read what the
 * bot did and move the clock. Ids are the snowflakes the bots see.
 */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { HarnessContext } from "./context";
import { DomainError } from "../core/errors";
import { handler, readBody } from "./http";
import { rotateToken } from "../wire/tokens";
import { readBodyText } from "../wire/body";
import { parseRequestJson } from "../wire/json";
import { harnessSessionsPlugin } from "./sessions";
import { harnessPeople } from "./people";
import { DmClient, harnessDms } from "./dms";
import { harnessActions } from "./actions";
import { harnessInteractions } from "./interactions";
import { harnessFaults } from "./faults-http";

const ClockBody = Type.Union([
  Type.Object({ advance_ms: Type.Number({ minimum: 0, maximum: 10 * 365 * 86_400_000 }) }, { additionalProperties: false }),
  Type.Object({ set: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
]);

type Ctx = { request: Request; params: Record<string, string> };

export function harnessPlugin(p: HarnessContext) {
  const appId = (flake: string) => {
    const id = p.flakes.uuid(flake);
    if (!id || !p.core.apps.get(id)) throw DomainError.notFound("application");
    return id;
  };
  const dms = new DmClient(p);
  return new Elysia({ prefix: "/api/harness/v1" })
    .use(harnessSessionsPlugin(p))
    .use(harnessInteractions(p))
    .use(harnessFaults(p))
    .post("/reset", handler<Ctx>(() => {
      p.reset();
      return undefined;
    }))
    .post("/seed", handler<Ctx>(async ({ request }) => {
      const doc = parseRequestJson(await readBodyText(request)) ?? {};
      return p.seed(doc);
    }))
    .post("/clock", handler<Ctx>(async ({ request }) => {
      const body = await readBody(request, ClockBody);
      if ("advance_ms" in body) p.clock.advance(body.advance_ms);
      else {
        const at = Date.parse(body.set);
        if (!Number.isFinite(at) || !/^\d{4}-\d{2}-\d{2}T/.test(body.set))
          throw DomainError.invalid("set", "Must be an ISO 8601 date-time", "DATE_TIME_INVALID");
        p.clock.set(at);
      }
      return { now: new Date(p.clock.now()).toISOString() };
    }))
    .post("/applications/:application_id/rotate", handler<Ctx>(({ params }) => ({
      token: rotateToken(p.core.apps, p.flakes, appId(params.application_id)),
    })))
    .use(harnessPeople(p, dms))
    .use(harnessDms(p, dms))
    .use(harnessActions(p, dms));
}
