import type { BotApi } from "../../botapi/context";
import type { WebhookRow } from "../../core/webhooks";
import { userJson } from "./user";

/**
 * Webhook (reference-gaps 3.9), type 1 (incoming). `token` only in the answer that
 * created it: Parley keeps no copy. `user` (the creator) only for bot-authenticated
 * reads; token-authenticated answers omit it, as the reference does. The stored
 * hmac_secret and v0_secret are never shown.
 */
export function webhookJson(api: BotApi, w: WebhookRow, opts: { withUser: boolean; token?: string }) {
  const f = api.flakes;
  const out: Record<string, unknown> = {
    id: f.of(w.id),
    type: 1,
    guild_id: f.of(w.guild_id),
    channel_id: f.of(w.channel_id),
    name: w.name,
    avatar: w.avatar,
    application_id: f.ofNullable(w.application_id),
  };
  if (opts.withUser && w.creator_id) {
    const u = api.core.users.get(w.creator_id);
    if (u) out.user = userJson(f, u);
  }
  if (opts.token) {
    out.token = opts.token;
    out.url = `${api.urls.base}/api/v10/webhooks/${out.id}/${opts.token}`;
  }
  return out;
}
