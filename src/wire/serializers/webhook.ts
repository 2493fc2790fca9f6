import type { WebhookModel } from "../../core";
import type { Ids } from "../snowflakes";
import { userJson } from "./user";

/**
 * Webhook (reference-gaps 3.9), type 1 (incoming). `token` and `url` for those who may
 * manage it (the reference shows incoming webhooks' tokens to them), when `withToken`;
 * never in the audit log. `user` (the creator) only for bot-authenticated reads;
 * token-authenticated answers omit it, as the reference does. The stored hmac_secret and
 * v0_secret are never shown.
 */
export function webhookJson(f: Ids, m: WebhookModel, opts: { withUser: boolean; withToken?: boolean; baseUrl?: string }) {
  const w = m.webhook;
  const out: Record<string, unknown> = {
    id: f.of(w.id),
    type: 1,
    guild_id: f.of(w.guild_id),
    channel_id: f.of(w.channel_id),
    name: w.name,
    avatar: w.avatar,
    application_id: f.ofNullable(w.application_id),
  };
  if (opts.withUser && m.creator) out.user = userJson(f, m.creator);
  if (opts.withToken && m.token) {
    out.token = m.token;
    out.url = `${opts.baseUrl ?? ""}/api/v10/webhooks/${out.id}/${m.token}`;
  }
  return out;
}
