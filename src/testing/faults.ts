import type { HarnessClient } from "./harness-client.js";
import type { World } from "./world.js";
import type { ArmedFault, Faults } from "./types.js";

/** The harness's faults (docs/harness.md "Faults"), with applications named as in the world. */
export function faultActions(harness: HarnessClient, world: World): Faults {
  const app = (ref: string) => world.appId(ref);
  const arm = (body: Record<string, unknown>) => harness.call<{ id: string }>("POST", "/faults", body);
  const optional = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return {
    gatewayClose: (a, code) => arm(optional({ kind: "gateway_close", application_id: app(a), code })),
    invalidSession: (a) => arm({ kind: "invalid_session", application_id: app(a) }),
    dropHeartbeatAcks: (a, drop) => arm({ kind: "heartbeat_ack", application_id: app(a), drop }),
    rest: (f) =>
      arm(
        optional({
          kind: "rest",
          application_id: f.app && app(f.app),
          method: f.method,
          route: f.route,
          path: f.path,
          status: f.status,
          times: f.times,
          retry_after: f.retryAfter,
          global: f.global,
        }),
      ),
    latency: (f) =>
      arm(
        optional({
          kind: "latency",
          application_id: f.app && app(f.app),
          method: f.method,
          route: f.route,
          path: f.path,
          ms: f.ms,
          times: f.times,
        }),
      ),
    list: () => harness.call<ArmedFault[]>("GET", "/faults"),
    delete: async (id) => void (await harness.call("DELETE", `/faults/${encodeURIComponent(id)}`)),
  };
}
