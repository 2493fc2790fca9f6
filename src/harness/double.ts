/**
 * What the harness watches and breaks while Parley runs as a test double: the event log,
 * faults and transcripts, built once by the composition root, which puts their hooks in
 * the bot API's and the gateway's lists (test mode only).
 */
import type { Core } from "../core";
import type { Snowflakes } from "../wire/snowflakes";
import type { HarnessGatewayHooks, HarnessRequestHooks, HookRequest, HookSession, LimitHeaders } from "./hooks";
import { EventLog } from "./eventlog";
import { Faults } from "./faults";
import { Transcripts } from "./transcripts";
import { Activity } from "./activity";
import { Coverage } from "./coverage";

export interface DoubleDeps {
  core: Pick<Core, "clock" | "interactions" | "webhooks" | "apps">;
  flakes: Snowflakes;
  limitHeaders: LimitHeaders;
}

export interface Double {
  events: EventLog;
  faults: Faults;
  transcripts: Transcripts;
  /** Whether the bots are busy (POST /settle). */
  activity: Activity;
  /** What the run's tests exercised, by application name; kept across resets. */
  coverage: Coverage;
  /** For BotApi.hooks. */
  requestHooks: HarnessRequestHooks[];
  /** For the gateway's hooks. */
  gatewayHooks: HarnessGatewayHooks[];
  /** A reset: no events, faults or transcripts left. */
  clear(): void;
}

export function createDouble(d: DoubleDeps): Double {
  const appOf = (r: HookRequest) => applicationOf(d, r);
  const events = new EventLog();
  const faults = new Faults(d.limitHeaders, appOf);
  const transcripts = new Transcripts(d.core.clock, appOf, (r) => faults.delayedBy(r));
  const activity = new Activity();
  const coverage = new Coverage((id) => d.core.apps.get(id)?.name ?? null, appOf);
  const log = { dispatched: (s: HookSession, frame: string) => events.append(s.owner.appFlake, s.id, frame) };
  return {
    events,
    faults,
    transcripts,
    activity,
    coverage,
    // Activity first, to count a request in flight through any delay; faults next: a
    // request they answer is still transcribed, with the answer they gave.
    requestHooks: [activity.requestHooks, faults.requestHooks, transcripts.requestHooks, coverage.requestHooks],
    gatewayHooks: [log, activity.gatewayHooks, faults.gatewayHooks, transcripts.gatewayHooks, coverage.gatewayHooks],
    clear() {
      events.clear();
      faults.clear();
      transcripts.clear();
      coverage.forgetIds();
    },
  };
}

/**
 * The application behind a request: its bot token's, or, on the token-less routes a bot
 * uses, the interaction it answers (callbacks), the application named in the path
 * (follow-ups), or the application that made the webhook.
 */
export function applicationOf(d: DoubleDeps, r: HookRequest): string | null {
  if (r.appId) return r.appId;
  const { core, flakes } = d;
  const params = r.params ?? {};
  const interaction = params.interaction_id ? flakes.uuid(params.interaction_id) : null;
  if (interaction) return core.interactions.get(interaction)?.application_id ?? null;
  const named = params.webhook_id ? flakes.uuid(params.webhook_id) : null;
  if (!named) return null;
  if (core.apps.get(named)) return named;
  return core.webhooks.get(named)?.application_id ?? null;
}
