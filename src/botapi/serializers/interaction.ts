import type { BotApi } from "../context";

/**
 * INTERACTION_CREATE's payload for one stored interaction (spec 6.3, reference-gaps
 * 4.1), or null if it no longer exists. Built out by the interactions work; the gateway
 * calls this for every `interaction.created` event.
 */
export function interactionCreateJson(api: BotApi, interactionId: string): Record<string, unknown> | null {
  const row = api.core.store.db.query("SELECT id, application_id, type FROM interactions WHERE id = ?").get(interactionId) as {
    id: string;
    application_id: string;
    type: number;
  } | null;
  if (!row) return null;
  return { id: api.flakes.of(row.id), application_id: api.flakes.of(row.application_id), type: row.type, version: 1 };
}
