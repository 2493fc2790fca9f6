/**
 * What became of an interaction, as a test wants it: its state, response and follow-ups
 * (GET /interactions/{id}), and from the bot's transcript the callback it answered with,
 * so a deferral shows even after the bot has filled it in.
 */
import type { InteractionResult, InteractionState, InteractionView } from "./person-types.js";
import type { TranscriptEntry, WaitOptions } from "./wire-types.js";
import type { SdkContext } from "./context.js";

type Poll = <T>(what: string, check: () => T | Promise<T>, w?: WaitOptions) => Promise<Exclude<T, undefined | null | false>>;

export interface InteractionHelpers {
  view(id: string): Promise<InteractionView>;
  result(id: string, delivered: boolean): Promise<InteractionResult>;
  /** Until the interaction is in one of `states`; `quiet`: a pending one past the timeout is answered as it is, not thrown. */
  waitFor(id: string, states: InteractionState[], o?: WaitOptions, quiet?: boolean): Promise<InteractionResult>;
}

/** Callback types that defer (spec 3.1): 5 a reply later, 6 an update later. */
const DEFERRALS = new Set([5, 6]);

export function interactionHelpers(ctx: SdkContext, poll: Poll): InteractionHelpers {
  const view = async (id: string): Promise<InteractionView> => ({
    id,
    ...(await ctx.harness.call<Omit<InteractionView, "id">>("GET", `/interactions/${id}`)),
  });

  /** The first callback the bot made for the interaction, from the transcripts of the world's applications. */
  async function callbackType(id: string): Promise<number | null> {
    const after = ctx.test.mark?.transcript;
    for (const app of Object.values(ctx.world.answer.applications)) {
      const q = after ? `?after=${encodeURIComponent(after)}` : "";
      const t = await ctx.harness.call<{ entries: TranscriptEntry[] }>("GET", `/applications/${app.id}/transcript${q}`).catch(() => null);
      const hit = t?.entries.find(
        (e) => e.kind === "rest" && e.path.startsWith(`/interactions/${id}/`) && e.path.endsWith("/callback") && e.status < 300,
      );
      if (hit && hit.kind === "rest") return Number((hit.request as { type?: unknown } | null)?.type ?? NaN) || null;
    }
    return null;
  }

  async function result(id: string, delivered: boolean): Promise<InteractionResult> {
    // The interaction's state commits before its callback is answered (and transcribed): let the answer land.
    await ctx.harness.call("POST", "/settle", { quiet_ms: 0, timeout_ms: 1000 });
    const v = await view(id);
    const type = await callbackType(id);
    return {
      ...v,
      delivered,
      ephemeral: !!v.response && (v.response.flags & 64) !== 0,
      deferred: type !== null && DEFERRALS.has(type),
      callbackType: type,
    };
  }

  return {
    view,
    result,
    async waitFor(id, states, o = {}, quiet = false) {
      const reached = async () => states.includes((await view(id)).state);
      try {
        await poll(`waitForInteraction(${id}, ${states.join("|")})`, reached, o);
      } catch (e) {
        if (!quiet) throw e;
      }
      return result(id, true);
    },
  };
}
