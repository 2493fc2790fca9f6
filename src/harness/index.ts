/**
 * The test harness (design/harness.md), mounted at /api/harness/v1 only in test mode.
 * It lets a CI pipeline seed a world, act as the people around a bot, read what the
 * bot did and move the clock. Ids are the snowflakes the bots see.
 */
import { Elysia } from "elysia";
import type { HarnessContext } from "./context";
import { DomainError } from "../core";
import { handler } from "./http";
import { rotateToken } from "../wire/tokens";
import { readBodyText } from "../wire/body";
import { parseRequestJson } from "../wire/json";
import { harnessSessionsPlugin } from "./sessions";
import { harnessPeople } from "./people";
import { DmClient, harnessDms } from "./dms";
import { harnessActions } from "./actions";
import { harnessInteractions } from "./interactions";
import { harnessFaults } from "./faults-http";
import { harnessClock } from "./clock";
import { harnessCoverage } from "./coverage";

type Ctx = { request: Request; params: Record<string, string> };

export function harnessPlugin(p: HarnessContext) {
  const appId = (flake: string) => {
    const id = p.flakes.uuid(flake);
    if (!id || !p.core.apps.get(id)) throw DomainError.notFound("application");
    return id;
  };
  const dms = new DmClient(p);
  // Every answer says where the event log stood when its request came (X-Event-Cursor),
  // so an SDK can wait for what an action caused and nothing older.
  const before = new WeakMap<Request, number>();
  return new Elysia({ prefix: "/api/harness/v1" })
    .onBeforeHandle(({ request }) => {
      before.set(request, p.events.cursor);
    })
    .onAfterHandle(({ request, response }) => {
      if (response instanceof Response) response.headers.set("X-Event-Cursor", String(before.get(request) ?? p.events.cursor));
    })
    .use(harnessSessionsPlugin(p))
    .use(harnessCoverage(p))
    .use(harnessInteractions(p))
    .use(harnessFaults(p))
    .use(harnessClock(p))
    .post("/reset", handler<Ctx>(() => {
      p.reset();
      return undefined;
    }))
    .post("/seed", handler<Ctx>(async ({ request }) => {
      const doc = parseRequestJson(await readBodyText(request)) ?? {};
      return p.seed(doc);
    }))
    .post("/applications/:application_id/rotate", handler<Ctx>(({ params }) => ({
      token: rotateToken(p.core.apps, p.flakes, appId(params.application_id)),
    })))
    .use(harnessPeople(p, dms))
    .use(harnessDms(p, dms))
    .use(harnessActions(p, dms));
}
