/**
 * Harness views of what bots did (design/harness.md): an application's sessions, so a
 * test knows when its bot is live; its transcript (every request and frame between it
 * and Parley); and the log of dispatch frames sent to bots, long-polled so a test waits
 * for an event without sleeping.
 */
import { Elysia } from "elysia";
import type { HarnessContext } from "./context";
import { DomainError } from "../core";
import { handler } from "./http";
import { MAX_WAIT_MS } from "./eventlog";

type Ctx = { request: Request; params: Record<string, string> };

function intParam(q: URLSearchParams, name: string, fallback: number): number {
  const v = q.get(name);
  if (v === null || v === "") return fallback;
  if (!/^\d{1,15}$/.test(v)) throw DomainError.invalid(name, "Must be a non-negative integer", "NUMBER_TYPE_COERCE");
  return Number(v);
}

export function harnessSessionsPlugin(p: HarnessContext) {
  return new Elysia()
    .get("/applications/:application_id/sessions", handler<Ctx>(({ params }) => {
      const id = p.flakes.uuid(params.application_id);
      if (!id || !p.core.apps.get(id)) throw DomainError.notFound("application");
      return p.gateway.sessionsOf(id);
    }))
    .get("/applications/:application_id/transcript", handler<Ctx>(({ request, params }) => {
      const id = p.flakes.uuid(params.application_id);
      if (!id || !p.core.apps.get(id)) throw DomainError.notFound("application");
      const q = new URL(request.url).searchParams;
      const after = intParam(q, "after", 0);
      const format = q.get("format") ?? "json";
      if (format === "json") return p.transcripts.after(id, after);
      if (format !== "text") throw DomainError.invalid("format", "Must be json or text", "BASE_TYPE_CHOICES");
      const t = p.transcripts.text(id, after);
      return new Response(t.text, { headers: { "Content-Type": "text/plain; charset=utf-8", "X-Transcript-Cursor": t.cursor } });
    }))
    .get("/events", handler<Ctx>(async ({ request }) => {
      const log = p.events;
      const q = new URL(request.url).searchParams;
      const after = intParam(q, "after", 0);
      const waitMs = Math.min(intParam(q, "wait_ms", 0), MAX_WAIT_MS);
      const got = await log.wait(after, waitMs);
      return {
        events: got.map((e) => ({ ...JSON.parse(e.frame), application_id: e.applicationId, session_id: e.sessionId })),
        // Nothing new: the log's cursor (never behind what the caller has already seen).
        cursor: String(got.length ? got[got.length - 1].cursor : log.cursor),
      };
    }));
}
