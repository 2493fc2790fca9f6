/**
 * Harness views of what bots did (design/harness.md): an application's sessions, so a
 * test knows when its bot is live; its transcript (every request and frame between it
 * and Parley); and the log of dispatch frames sent to bots, long-polled so a test waits
 * for an event without sleeping.
 */
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { DomainError } from "../core";
import { route } from "./http";
import { MAX_WAIT_MS } from "./eventlog";

function intParam(q: URLSearchParams, name: string, fallback: number): number {
  const v = q.get(name);
  if (v === null || v === "") return fallback;
  if (!/^\d{1,15}$/.test(v)) throw DomainError.invalid(name, "Must be a non-negative integer", "NUMBER_TYPE_COERCE");
  return Number(v);
}

export function harnessSessions(p: HarnessContext): Route<HarnessContext>[] {
  const appId = (flake: string) => {
    const id = p.flakes.uuid(flake);
    if (!id || !p.core.apps.get(id)) throw DomainError.notFound("application");
    return id;
  };
  return [
    route({
      method: "GET",
      path: "/applications/{application_id}/sessions",
      caller: "harness",
      summary: "The application's gateway sessions",
      handler: ({ params }) => p.gateway.sessionsOf(appId(params.application_id)),
    }),
    route({
      method: "GET",
      path: "/applications/{application_id}/transcript",
      caller: "harness",
      summary: "Everything between a bot and Parley (after, format=text)",
      handler: ({ params, query }) => {
        const id = appId(params.application_id);
        const after = intParam(query, "after", 0);
        const format = query.get("format") ?? "json";
        if (format === "json") return p.transcripts.after(id, after);
        if (format !== "text") throw DomainError.invalid("format", "Must be json or text", "BASE_TYPE_CHOICES");
        const t = p.transcripts.text(id, after);
        return new Response(t.text, { headers: { "Content-Type": "text/plain; charset=utf-8", "X-Transcript-Cursor": t.cursor } });
      },
    }),
    route({
      method: "GET",
      path: "/events",
      caller: "harness",
      summary: "Dispatch frames sent to bots (after, wait_ms)",
      handler: async ({ query }) => {
        const log = p.events;
        const after = intParam(query, "after", 0);
        const waitMs = Math.min(intParam(query, "wait_ms", 0), MAX_WAIT_MS);
        const got = await log.wait(after, waitMs);
        return {
          events: got.map((e) => ({ ...JSON.parse(e.frame), application_id: e.applicationId, session_id: e.sessionId })),
          // Nothing new: the log's cursor (never behind what the caller has already seen).
          cursor: String(got.length ? got[got.length - 1].cursor : log.cursor),
        };
      },
    }),
  ];
}
