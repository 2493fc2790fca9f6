/**
 * The faults endpoints (design/harness.md "Faults"): arm a fault, list what is armed,
 * delete one. Gateway closes and invalid sessions act here, at once, on the
 * application's live sessions; the others are armed in faults.ts and wait for their
 * requests or heartbeats.
 */
import { Elysia } from "elysia";
import { readBodyText } from "../wire/body";
import type { HarnessContext } from "./context";
import { DomainError } from "../core";
import { parseRequestJson } from "../wire/json";
import { idString } from "../wire/validation";
import { handler } from "./http";
import { parseFault } from "./faults";

type Ctx = { request: Request; params: Record<string, string> };

/** Spec 3.2: 4000 is the close a bot should RESUME after. */
const DEFAULT_CLOSE = 4000;

export function harnessFaults(p: HarnessContext) {
  const appId = (flake: string) => {
    const id = p.flakes.uuid(flake);
    if (!id || !p.core.apps.get(id)) throw DomainError.notFound("application");
    return id;
  };
  return new Elysia()
    .post("/faults", handler<Ctx>(async ({ request }) => {
      const body = parseFault(parseRequestJson(await readBodyText(request)));
      if (body.application_id !== undefined) body.application_id = idString(body.application_id);
      const app = body.application_id === undefined ? null : appId(body.application_id);
      const live = app ? p.gateway.sessionsOf(app).filter((s) => s.connected).map((s) => s.session_id) : [];
      if (body.kind === "gateway_close") {
        for (const s of live) p.gateway.disconnect(s, body.code ?? DEFAULT_CLOSE);
        return { id: p.faults.newId() };
      }
      if (body.kind === "invalid_session") {
        for (const s of live) p.gateway.invalidate(s);
        return { id: p.faults.newId() };
      }
      return { id: p.faults.arm(body, app, live) };
    }))
    .get("/faults", handler<Ctx>(() => p.faults.list()))
    .delete("/faults/:id", handler<Ctx>(({ params }) => {
      if (!p.faults.delete(params.id)) throw DomainError.notFound("fault");
      return undefined;
    }));
}
