/**
 * The test harness (design/harness.md), mounted at /api/harness/v1 only in test mode.
 * It lets a CI pipeline seed a world, act as the people around a bot, read what the
 * bot did and move the clock. Ids are the snowflakes the bots see.
 */
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { DomainError } from "../core";
import { route } from "./http";
import { rotateToken } from "../wire/tokens";
import { WorldSchema } from "../world";
import { harnessSessions } from "./sessions";
import { harnessPeople } from "./people";
import { harnessPersonSession } from "./person-session";
import { DmClient, harnessDms } from "./dms";
import { harnessActions } from "./actions";
import { harnessInteractions } from "./interactions";
import { harnessFaults } from "./faults-http";
import { harnessClock } from "./clock";

export { HARNESS_PREFIX, harnessDoor } from "./http";
export { HARNESS_DESCRIPTION } from "./openapi";

/** Every harness route, declared; the composition root mounts them behind the harness's door. */
export function harnessRoutes(p: HarnessContext): Route<HarnessContext>[] {
  const appId = (flake: string) => {
    const id = p.flakes.uuid(flake);
    if (!id || !p.core.apps.get(id)) throw DomainError.notFound("application");
    return id;
  };
  const dms = new DmClient(p);
  return [
    ...harnessSessions(p),
    route({
      method: "GET",
      path: "/coverage",
      caller: "harness",
      summary: "What the run's tests exercised: events, routes, commands and components per application, kept across resets",
      handler: () => p.coverage.report(),
    }),
    route({
      method: "DELETE",
      path: "/coverage",
      caller: "harness",
      summary: "Start coverage over",
      handler: () => {
        p.coverage.clear();
        return undefined;
      },
    }),
    ...harnessInteractions(p),
    ...harnessFaults(p),
    ...harnessClock(p),
    route({
      method: "POST",
      path: "/reset",
      caller: "harness",
      summary: "Empty the world, every session and window; real time again",
      handler: () => {
        p.reset();
        return undefined;
      },
    }),
    route({
      method: "POST",
      path: "/seed",
      caller: "harness",
      summary: "Create a world document in one transaction; answers its ids and tokens",
      // The world document is checked by the seeding itself (src/world), with its own messages.
      body: WorldSchema,
      bodyOptional: true,
      handler: async (x) => {
        const answer = await p.seed(x.json() ?? {});
        // Another world in it: a test run that seeded before knows its world changed under it.
        p.events.generation++;
        return answer;
      },
    }),
    route({
      method: "POST",
      path: "/applications/{application_id}/rotate",
      caller: "harness",
      summary: "Mint a new bot token",
      handler: ({ params }) => ({ token: rotateToken(p.core.apps, p.flakes, appId(params.application_id)) }),
    }),
    ...harnessPeople(p, dms),
    ...harnessPersonSession(p),
    ...harnessDms(p, dms),
    ...harnessActions(p, dms),
  ];
}
