import { Type } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute, type Reply, type TokenReq } from "../http";
import type { BotApi } from "../context";
import { Nullable, Snowflake } from "../../wire/validation";
import { MessageBodySchema, validateMessagePayload, type NormalizedMessage } from "../schemas/message";
import { DomainError, type Message, type MessagePatch, type Webhook } from "../../core";
import { messageOut, webhookOut } from "../present";
import { boolQuery, idParam, memberGuild } from "./guilds";
import { interactionFollowup, interactionMessageDelete, interactionMessageGet, interactionMessagePatch } from "./interaction-webhooks";

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

export type WebhookTarget = { kind: "webhook"; webhook: Webhook } | { kind: "interaction" };

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

function tokenTarget(req: TokenReq): WebhookTarget {
  return resolveWebhookTarget(req.ctx, req.params.webhook_id ?? "", decoded(req.params.webhook_token));
}

/** A token path whose first segment is no webhook, on a route that has no interaction meaning. */
function requireWebhook(req: TokenReq): Webhook {
  const t = tokenTarget(req);
  if (t.kind !== "webhook") throw DomainError.notFound("webhook");
  return t.webhook;
}

function webhookMessageId(req: TokenReq): string | null {
  return req.ctx.flakes.uuid(decoded(req.params.message_id));
}

function messageReply(req: TokenReq, m: Message): Reply {
  return ok(messageOut(req.ctx, m, { viewer: null }));
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

export const webhookRoutes: BotRoute[] = [
  // ---- management with a bot token ----
  route({
    method: "POST",
    path: "/channels/{channel_id}/webhooks",
    summary: "Create a webhook in a channel",
    caller: "bot",
    body: CreateWebhookBody,
    handler: (req) => {
      const cid = idParam(req, "channel_id", "channel");
      const b = req.body();
      const { webhook } = req.ctx.core.webhooks.create(
        cid,
        req.caller.botUserId,
        { name: b.name, avatar: b.avatar, hmacSecret: b.hmac_secret, v0Secret: b.v0_secret },
        req.auditReason,
      );
      return ok(webhookOut(req.ctx, webhook, { withUser: true }));
    },
  }),
  route({
    method: "GET",
    path: "/channels/{channel_id}/webhooks",
    summary: "A channel's webhooks",
    caller: "bot",
    handler: (req) =>
      ok(
        req.ctx.core.webhooks
          .listChannel(idParam(req, "channel_id", "channel"), req.caller.botUserId)
          .map((w) => webhookOut(req.ctx, w, { withUser: true })),
      ),
  }),
  route({
    method: "GET",
    path: "/guilds/{guild_id}/webhooks",
    summary: "A server's webhooks",
    caller: "bot",
    handler: (req) =>
      ok(req.ctx.core.webhooks.listGuild(memberGuild(req), req.caller.botUserId).map((w) => webhookOut(req.ctx, w, { withUser: true }))),
  }),
  route({
    method: "GET",
    path: "/webhooks/{webhook_id}",
    summary: "A webhook",
    caller: "bot",
    handler: (req) =>
      ok(webhookOut(req.ctx, req.ctx.core.webhooks.view(idParam(req, "webhook_id", "webhook"), req.caller.botUserId), { withUser: true })),
  }),
  route({
    method: "PATCH",
    path: "/webhooks/{webhook_id}",
    summary: "Edit a webhook (name, avatar, channel)",
    caller: "bot",
    body: EditWebhookBody,
    bodyOptional: true,
    handler: (req) => {
      const id = idParam(req, "webhook_id", "webhook");
      const b = req.body();
      let channelId: string | undefined;
      if (b.channel_id !== undefined && b.channel_id !== null) {
        const c = req.ctx.flakes.uuid(String(b.channel_id));
        if (!c) throw DomainError.invalid("channel_id", "Unknown channel", "CHANNEL_INVALID");
        channelId = c;
      }
      const w = req.ctx.core.webhooks.edit(id, req.caller.botUserId, { name: b.name, avatar: b.avatar, channelId }, req.auditReason);
      return ok(webhookOut(req.ctx, w, { withUser: true }));
    },
  }),
  route({
    method: "DELETE",
    path: "/webhooks/{webhook_id}",
    summary: "Delete a webhook",
    caller: "bot",
    handler: (req) => {
      req.ctx.core.webhooks.delete(idParam(req, "webhook_id", "webhook"), req.caller.botUserId, req.auditReason);
      return noContent();
    },
  }),

  // ---- the token is the credential ----
  route({
    method: "GET",
    path: "/webhooks/{webhook_id}/{webhook_token}",
    summary: "A webhook, by its token",
    caller: "token",
    handler: (req) => ok(webhookOut(req.ctx, requireWebhook(req), { withUser: false })),
  }),
  route({
    method: "PATCH",
    path: "/webhooks/{webhook_id}/{webhook_token}",
    summary: "Edit a webhook by its token (name, avatar)",
    caller: "token",
    body: EditWebhookWithTokenBody,
    bodyOptional: true,
    handler: (req) => {
      const w0 = requireWebhook(req);
      const raw = req.json();
      if (raw && typeof raw === "object" && "channel_id" in raw)
        throw DomainError.invalid("channel_id", "A webhook token cannot move its webhook; use a bot token");
      const b = req.body();
      const w = req.ctx.core.webhooks.edit(w0.id, null, { name: b.name, avatar: b.avatar }, req.auditReason);
      return ok(webhookOut(req.ctx, w, { withUser: false }));
    },
  }),
  route({
    method: "DELETE",
    path: "/webhooks/{webhook_id}/{webhook_token}",
    summary: "Delete a webhook by its token",
    caller: "token",
    handler: (req) => {
      req.ctx.core.webhooks.delete(requireWebhook(req).id, null, req.auditReason);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/webhooks/{webhook_id}/{webhook_token}",
    summary: "Execute a webhook (post a message), or an interaction's follow-up",
    caller: "token",
    // The message parts are checked by the one message validator; the schema holds what is the webhook's own.
    body: ExecuteWebhookBody,
    bodyOptional: true,
    query: Type.Object({ wait: Type.Optional(Type.Boolean()), thread_id: Type.Optional(Type.String()) }),
    limit: { limit: 5, windowMs: 2000 },
    handler: (req) => {
      const t = tokenTarget(req);
      if (t.kind === "interaction") return interactionFollowup(req, req.params.webhook_id, decoded(req.params.webhook_token));
      if (req.query.get("thread_id")) throw DomainError.notImplemented("501: Not Implemented. Parley has no threads.");
      const b = req.body();
      if (b.thread_id != null || b.thread_name != null) throw DomainError.notImplemented("501: Not Implemented. Parley has no threads.");
      const n = validateMessagePayload(req.json(), req.ctx.flakes, { partial: true });
      const m = req.ctx.core.webhooks.execute(t.webhook, {
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
  }),
  route({
    method: "GET",
    path: "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    summary: "A message the webhook (or the interaction) sent",
    caller: "token",
    handler: (req) => {
      const t = tokenTarget(req);
      if (t.kind === "interaction")
        return interactionMessageGet(req, req.params.webhook_id, decoded(req.params.webhook_token), decoded(req.params.message_id));
      return messageReply(req, req.ctx.core.webhooks.message(t.webhook, webhookMessageId(req)));
    },
  }),
  route({
    method: "PATCH",
    path: "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    summary: "Edit a message the webhook (or the interaction) sent",
    caller: "token",
    body: MessageBodySchema,
    handler: (req) => {
      const t = tokenTarget(req);
      if (t.kind === "interaction")
        return interactionMessagePatch(req, req.params.webhook_id, decoded(req.params.webhook_token), decoded(req.params.message_id));
      const mid = webhookMessageId(req);
      req.ctx.core.webhooks.message(t.webhook, mid);
      const n = validateMessagePayload(req.json(), req.ctx.flakes, { partial: true });
      return messageReply(req, req.ctx.core.webhooks.editMessage(t.webhook, mid, messagePatch(n)));
    },
  }),
  route({
    method: "DELETE",
    path: "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    summary: "Delete a message the webhook (or the interaction) sent",
    caller: "token",
    handler: (req) => {
      const t = tokenTarget(req);
      if (t.kind === "interaction")
        return interactionMessageDelete(req, req.params.webhook_id, decoded(req.params.webhook_token), decoded(req.params.message_id));
      req.ctx.core.webhooks.deleteMessage(t.webhook, webhookMessageId(req));
      return noContent();
    },
  }),
];
