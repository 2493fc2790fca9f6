/**
 * The harness's door (test mode only): its routes are declared like every other door's
 * (wire/route.ts) and run through the one pipeline, behind the people's API's first look
 * (same-origin JSON only). A handler answers a value (200) or nothing (204); errors are
 * the spec's body through the one mapping.
 */
import type { HarnessContext } from "./context";
import { routes } from "../wire/route";
import type { Door } from "../wire/pipeline";
import type { RequestHooks } from "../wire/hooks";
import { jsonDoor } from "../wire/json-door";
import { bodyLimitFor } from "../wire/body";

export const HARNESS_PREFIX = "/api/harness/v1";

/** The harness's declaration helper: its routes ask for no credential (the server runs in test mode). */
export const route = routes<HarnessContext, { harness: null }, unknown>();

export function harnessDoor(
  p: HarnessContext,
  o: { screen(r: Request): Response | undefined; hooks: RequestHooks[]; sync: boolean; report(err: unknown, route: string): void },
): Door<HarnessContext> {
  const door = jsonDoor({ name: "harness", prefix: HARNESS_PREFIX, ctx: p, bodyLimit: bodyLimitFor(HARNESS_PREFIX + "/"), ...o });
  // Every answer says where the event log stood when its request came (X-Event-Cursor),
  // so an SDK can wait for what an action caused and nothing older. The first look is
  // the first thing the pipeline does with a request, so the cursor is taken there.
  const cursorAt = new WeakMap<Request, number>();
  return {
    ...door,
    screen(request) {
      cursorAt.set(request, p.events.cursor);
      return door.screen(request);
    },
    respond(x, a) {
      const out = door.respond(x, a);
      out.headers.set("X-Event-Cursor", String((x && cursorAt.get(x.request)) ?? p.events.cursor));
      // Which world answered (the resets and seeds so far, after the request's own): an SDK
      // whose world another test run reset can say so instead of "Unknown channel".
      out.headers.set("X-Harness-World", String(p.events.generation));
      return out;
    },
  };
}
