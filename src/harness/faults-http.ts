/**
 * The faults endpoints (design/harness.md "Faults"): arm a fault, list what is armed,
 * delete one. Gateway closes and invalid sessions act here, at once, on the
 * application's live sessions; the others are armed in faults.ts and wait for their
 * requests or heartbeats.
 */
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { DomainError } from "../core";
import { idString } from "../wire/validation";
import { route } from "./http";
import { checkServed, FaultSchema, parseFault, type FaultBody } from "./faults";

/** Spec 3.2: 4000 is the close a bot should RESUME after. */
const DEFAULT_CLOSE = 4000;

export function harnessFaults(p: HarnessContext): Route<HarnessContext>[] {
  const appId = (flake: string) => {
    const id = p.flakes.uuid(flake);
    if (!id || !p.core.apps.get(id)) throw DomainError.notFound("application");
    return id;
  };
  /** A hold is for a node that shares gateway sessions: elsewhere there is nothing to hold. */
  const hold = (body: Extract<FaultBody, { kind: "hold" }>) => {
    if (!p.cluster) throw DomainError.invalid("kind", "A hold is for a node that shares gateway sessions (--redis)", "BASE_TYPE_CHOICES");
    return p.faults.held(body, body.what === "events" ? p.cluster.events() : p.cluster.sessionWrites());
  };
  return [
    route({
      method: "POST",
      path: "/faults",
      caller: "harness",
      summary: "Break something on purpose: gateway close, invalid session, dropped ACKs, REST errors, latency, a cluster hold",
      // parseFault checks the body with the messages docs/harness.md shows.
      body: FaultSchema,
      handler: (x) => {
        const body = parseFault(x.json());
        checkServed(body, p.botRoutes);
        if (body.kind === "hold") return { id: hold(body) };
        if (body.application_id !== undefined) body.application_id = idString(body.application_id);
        const app = body.application_id === undefined ? null : appId(body.application_id);
        const live = app
          ? p.gateway
              .sessionsOf(app)
              .filter((s) => s.connected)
              .map((s) => s.session_id)
          : [];
        if (body.kind === "gateway_close") {
          for (const s of live) p.gateway.disconnect(s, body.code ?? DEFAULT_CLOSE);
          return { id: p.faults.newId() };
        }
        if (body.kind === "invalid_session") {
          for (const s of live) p.gateway.invalidate(s);
          return { id: p.faults.newId() };
        }
        return { id: p.faults.arm(body, app, live) };
      },
    }),
    route({
      method: "GET",
      path: "/faults",
      caller: "harness",
      summary: "The armed faults and how many uses each has left",
      handler: () => p.faults.list(),
    }),
    route({
      method: "DELETE",
      path: "/faults/{id}",
      caller: "harness",
      summary: "Disarm a fault",
      handler: ({ params }) => {
        if (!p.faults.delete(params.id)) throw DomainError.notFound("fault");
        return undefined;
      },
    }),
  ];
}
