import { Type, type Static } from "@sinclair/typebox";
import { noContent, ok, type Reply, type Req, type RouteDef } from "../http";
import type { BotApi } from "../context";
import { Nullable, Snowflake } from "../../wire/validation";
import { validateMessagePayload, type NormalizedMessage } from "../schemas/message";
import { DomainError } from "../../core/errors";
import type { WebhookRow } from "../../core/webhooks";
import type { MessagePatch } from "../../core/messages";
import { messageOut, webhookOut } from "../present";
import { boolQuery, idParam, memberGuild } from "./guilds";
import {
  interactionFollowup,
  interactionMessageDelete,
  interactionMessageGet,
  interactionMessagePatch,
} from "./interaction-webhooks";

const Secret = Nullable(Type.String({ minLength: 1, maxLength: 256 }));
const Avatar = Nullable(Type.String({ maxLength: 10_000_000 }));

export const CreateWebhookBody = Type.Object({
  name: Type.String({ maxLength: 80 }),
  avatar: Type.Optional(Avatar),
  hmac_secret: Type.Optional(Secret),
  v0_secret: Type.Optional(Secret),
});

export const EditWebhookBody = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 80 }))),
  avatar: Type.Optional(Avatar),
  channel_id: Type.Optional(Nullable(Snowflake)),
});

export const EditWebhookWithTokenBody = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 80 }))),
  avatar: Type.Optional(Avatar),
});

// The message parts (content, embeds, components, flags) go through the one message
// validator (spec 8.2, rule 6); these schemas hold only what is webhook-specific.
export const ExecuteWebhookBody = Type.Object({
  username: Type.Optional(Nullable(Type.String({ maxLength: 80 }))),
  avatar_url: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
  thread_id: Type.Optional(Nullable(Snowflake)),
  thread_name: Type.Optional(Nullable(Type.String())),
});

export type WebhookTarget = { kind: "webhook"; webhook: WebhookRow } | { kind: "interaction" };

/**
 * Token paths serve two things: webhooks (first segment a webhook id) and interaction
 * follow-ups (first segment an application id). A webhook with a wrong token is 401; an
 * application's id, or an interaction's token under another id (spec 3.1: 10062), is the
 * interactions area's to answer; anything else (a webhook that was deleted, an id that
 * names nothing) is an unknown webhook, 404 10003.
 */
export function resolveWebhookTarget(api: BotApi, idFlake: string, token: string): WebhookTarget {
  const id = api.flakes.uuid(idFlake);
  const w = id ? api.core.webhooks.get(id) : null;
  if (w) return { kind: "webhook", webhook: api.core.webhooks.authenticate(w.id, token) };
  if ((id && api.core.apps.get(id)) || api.core.interactionResponses.issued(token)) return { kind: "interaction" };
  throw DomainError.notFound("webhook");
}

function decoded(s: string | undefined): string {
  try {
    return decodeURIComponent(s ?? "");
  } catch {
    return s ?? "";
  }
}

function tokenTarget(req: Req): WebhookTarget {
  return resolveWebhookTarget(req.api, req.params.webhook_id ?? "", decoded(req.params.webhook_token));
}

/** A token path whose first segment is no webhook, on a route that has no interaction meaning. */
function requireWebhook(req: Req): WebhookRow {
  const t = tokenTarget(req);
  if (t.kind !== "webhook") throw DomainError.notFound("webhook");
  return t.webhook;
}

async function optionalBody<T extends import("@sinclair/typebox").TSchema>(req: Req, schema: T): Promise<Static<T> | Record<string, never>> {
  return (await req.json()) === undefined ? {} : await req.body(schema);
}

function webhookMessageId(req: Req): string | null {
  return req.api.flakes.uuid(decoded(req.params.message_id));
}

function messageReply(req: Req, m: import("../../core/types").MessageRow): Reply {
  return ok(messageOut(req.api, m, { viewer: null }));
}

function messagePatch(n: NormalizedMessage): MessagePatch {
  const patch: MessagePatch = {};
  if (n.has.content) {
    patch.content = n.content ?? "";
    patch.allowedMentions = n.allowedMentions;
  }
  if (n.has.embeds) patch.embeds = n.embeds ?? [];
  if (n.has.components) patch.components = n.components ?? [];
  if (n.has.flags && n.flags !== null) patch.flags = n.flags;
  return patch;
}

export const webhookRoutes: RouteDef[] = [
  // ---- management with a bot token ----
  {
    method: "POST",
    path: "/channels/{channel_id}/webhooks",
    auth: "bot",
    handler: async (req) => {
      const cid = idParam(req, "channel_id", "channel");
      const b = await req.body(CreateWebhookBody);
      const { webhook } = req.api.core.webhooks.create(
        cid,
        req.bot.botUserId,
        { name: b.name, avatar: b.avatar, hmacSecret: b.hmac_secret, v0Secret: b.v0_secret },
        req.auditReason,
      );
      return ok(webhookOut(req.api, webhook, { withUser: true }));
    },
  },
  {
    method: "GET",
    path: "/channels/{channel_id}/webhooks",
    auth: "bot",
    handler: (req) =>
      ok(req.api.core.webhooks.listChannel(idParam(req, "channel_id", "channel"), req.bot.botUserId).map((w) => webhookOut(req.api, w, { withUser: true }))),
  },
  {
    method: "GET",
    path: "/guilds/{guild_id}/webhooks",
    auth: "bot",
    handler: (req) => ok(req.api.core.webhooks.listGuild(memberGuild(req), req.bot.botUserId).map((w) => webhookOut(req.api, w, { withUser: true }))),
  },
  {
    method: "GET",
    path: "/webhooks/{webhook_id}",
    auth: "bot",
    handler: (req) => ok(webhookOut(req.api, req.api.core.webhooks.view(idParam(req, "webhook_id", "webhook"), req.bot.botUserId), { withUser: true })),
  },
  {
    method: "PATCH",
    path: "/webhooks/{webhook_id}",
    auth: "bot",
    handler: async (req) => {
      const id = idParam(req, "webhook_id", "webhook");
      const b = await optionalBody(req, EditWebhookBody);
      let channelId: string | undefined;
      if (b.channel_id !== undefined && b.channel_id !== null) {
        const c = req.api.flakes.uuid(String(b.channel_id));
        if (!c) throw DomainError.invalid("channel_id", "Unknown channel", "CHANNEL_INVALID");
        channelId = c;
      }
      const w = req.api.core.webhooks.edit(id, req.bot.botUserId, { name: b.name, avatar: b.avatar, channelId }, req.auditReason);
      return ok(webhookOut(req.api, w, { withUser: true }));
    },
  },
  {
    method: "DELETE",
    path: "/webhooks/{webhook_id}",
    auth: "bot",
    handler: (req) => {
      req.api.core.webhooks.delete(idParam(req, "webhook_id", "webhook"), req.bot.botUserId, req.auditReason);
      return noContent();
    },
  },

  // ---- the token is the credential ----
  {
    method: "GET",
    path: "/webhooks/{webhook_id}/{webhook_token}",
    auth: "none",
    handler: (req) => ok(webhookOut(req.api, requireWebhook(req), { withUser: false })),
  },
  {
    method: "PATCH",
    path: "/webhooks/{webhook_id}/{webhook_token}",
    auth: "none",
    handler: async (req) => {
      const w0 = requireWebhook(req);
      const raw = await req.json();
      if (raw && typeof raw === "object" && "channel_id" in raw)
        throw DomainError.invalid("channel_id", "A webhook token cannot move its webhook; use a bot token");
      const b = await optionalBody(req, EditWebhookWithTokenBody);
      const w = req.api.core.webhooks.edit(w0.id, null, { name: b.name, avatar: b.avatar }, req.auditReason);
      return ok(webhookOut(req.api, w, { withUser: false }));
    },
  },
  {
    method: "DELETE",
    path: "/webhooks/{webhook_id}/{webhook_token}",
    auth: "none",
    handler: (req) => {
      req.api.core.webhooks.delete(requireWebhook(req).id, null, req.auditReason);
      return noContent();
    },
  },
  {
    method: "POST",
    path: "/webhooks/{webhook_id}/{webhook_token}",
    auth: "none",
    handler: async (req) => {
      const t = tokenTarget(req);
      if (t.kind === "interaction") return interactionFollowup(req, req.params.webhook_id, decoded(req.params.webhook_token));
      if (req.query.get("thread_id")) throw DomainError.notImplemented("501: Not Implemented. Parley has no threads.");
      const b = await optionalBody(req, ExecuteWebhookBody);
      if (b.thread_id != null || b.thread_name != null) throw DomainError.notImplemented("501: Not Implemented. Parley has no threads.");
      const n = validateMessagePayload(await req.json(), req.api.flakes, { partial: true });
      const m = req.api.core.webhooks.execute(t.webhook, {
        content: n.content,
        embeds: n.embeds,
        components: n.components,
        username: b.username,
        avatarUrl: b.avatar_url,
        tts: n.tts,
        flags: n.flags,
        allowedMentions: n.allowedMentions,
      });
      return boolQuery(req, "wait") ? messageReply(req, m) : noContent();
    },
  },
  {
    method: "GET",
    path: "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    auth: "none",
    handler: (req) => {
      const t = tokenTarget(req);
      if (t.kind === "interaction") return interactionMessageGet(req, req.params.webhook_id, decoded(req.params.webhook_token), decoded(req.params.message_id));
      return messageReply(req, req.api.core.webhooks.message(t.webhook, webhookMessageId(req)));
    },
  },
  {
    method: "PATCH",
    path: "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    auth: "none",
    handler: async (req) => {
      const t = tokenTarget(req);
      if (t.kind === "interaction") return interactionMessagePatch(req, req.params.webhook_id, decoded(req.params.webhook_token), decoded(req.params.message_id));
      const mid = webhookMessageId(req);
      req.api.core.webhooks.message(t.webhook, mid);
      const n = validateMessagePayload(await req.json(), req.api.flakes, { partial: true });
      return messageReply(req, req.api.core.webhooks.editMessage(t.webhook, mid, messagePatch(n)));
    },
  },
  {
    method: "DELETE",
    path: "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    auth: "none",
    handler: (req) => {
      const t = tokenTarget(req);
      if (t.kind === "interaction") return interactionMessageDelete(req, req.params.webhook_id, decoded(req.params.webhook_token), decoded(req.params.message_id));
      req.api.core.webhooks.deleteMessage(t.webhook, webhookMessageId(req));
      return noContent();
    },
  },
];
