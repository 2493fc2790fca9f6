import { Type } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute, type Reply, type Req } from "../http";
import { type Channel, DomainError, type Message, type SendInput } from "../../core";
import { Snowflakes } from "../../wire/snowflakes";
import { Snowflake } from "../../wire/validation";
import { MessageBodySchema, validateMessagePayload } from "../schemas/message";
import { messageOut } from "../present";
import { keepAttachmentsIn } from "../../wire/files";
import { flakeParam, known, limitParam } from "./ids";

export const BulkDeleteBody = Type.Object({ messages: Type.Array(Snowflake, { minItems: 2, maxItems: 100 }) });

/** A message as the calling bot may see it through REST (the one visibility rule, src/wire/visibility.ts). */
function shown(req: Req, m: Message, o: { fresh?: boolean; channel?: Channel } = {}) {
  return messageOut(req.ctx, m, { viewer: req.caller, ...o });
}

/**
 * POST /channels/{id}/messages, in the order the answers must keep: an unknown or
 * invisible channel is 404 before a bad body is 400, and that before a missing
 * permission is 403 (which send() decides).
 */
function post(req: Req): Reply {
  const { ctx: api, params, caller: bot } = req;
  const channelId = known(api, params.channel_id, "channel");
  const draft = api.core.messages.begin(bot.botUserId, channelId);
  const body = validateMessagePayload(req.json(), api.flakes, { rawLength: req.bodyLength() });
  if (body.reference && body.reference.type !== 0)
    throw DomainError.notImplemented("501: Not Implemented. Message forwarding is not supported by Parley.");
  const input: SendInput = {
    content: body.content ?? "",
    embeds: body.embeds ?? [],
    components: body.components ?? [],
    flags: body.flags ?? 0,
    nonce: body.nonce,
    enforceNonce: body.enforceNonce,
    tts: body.tts,
    allowedMentions: body.allowedMentions,
    reference: body.reference
      ? {
          messageId: body.reference.messageId ? api.flakes.uuid(body.reference.messageId) : null,
          failIfNotExists: body.reference.failIfNotExists,
        }
      : null,
  };
  // A new message's snowflake is paired in its own write (createCore's numberNew); a nonce
  // enforced may answer the message posted before, which has its number.
  const m = draft.send(input);
  // Without enforce_nonce every post inserts a new message, which has no reactions yet.
  return ok(shown(req, m, { channel: draft.channel, fresh: !(body.enforceNonce && body.nonce) }));
}

export const messageRoutes: BotRoute[] = [
  route({
    method: "POST",
    path: "/channels/{channel_id}/messages",
    caller: "bot",
    summary: "Send a message",
    // The message validator checks what a schema cannot say (spec 8.2) on the raw JSON.
    body: MessageBodySchema,
    limit: { limit: 5, windowMs: 5000 },
    handler: post,
  }),
  route({
    method: "GET",
    path: "/channels/{channel_id}/messages",
    summary: "A channel's messages, newest first (limit; around, before or after)",
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      around: Type.Optional(Type.String()),
      before: Type.Optional(Type.String()),
      after: Type.Optional(Type.String()),
    }),
    caller: "bot",
    handler: (req) => {
      const { ctx: api, params, query, caller: bot } = req;
      const limit = limitParam(query.get("limit"), 50, 1, 100);
      const around = flakeParam(query.get("around"), "around");
      const before = flakeParam(query.get("before"), "before");
      const after = flakeParam(query.get("after"), "after");
      if ([around, before, after].filter((x) => x !== undefined).length > 1)
        throw DomainError.invalid("", "around, before and after are mutually exclusive", "BASE_TYPE_INVALID");
      const channelId = known(api, params.channel_id, "channel");
      const rows = api.core.messages.history(bot.botUserId, channelId, {
        limit,
        around: around && api.flakes.bound(around, false),
        before: before && api.flakes.bound(before, false),
        after: after && api.flakes.bound(after, true),
      });
      return ok(rows.map((m) => shown(req, m)));
    },
  }),
  route({
    method: "GET",
    path: "/channels/{channel_id}/messages/{message_id}",
    summary: "One message",
    caller: "bot",
    handler: (req) => {
      const { ctx: api, params, caller: bot } = req;
      const channelId = known(api, params.channel_id, "channel");
      const m = api.core.messages.fetch(bot.botUserId, channelId, known(api, params.message_id, "message"));
      return ok(shown(req, m));
    },
  }),
  route({
    method: "PATCH",
    path: "/channels/{channel_id}/messages/{message_id}",
    summary: "Edit a message",
    caller: "bot",
    body: MessageBodySchema,
    handler: (req) => {
      const { ctx: api, params, caller: bot } = req;
      const channelId = known(api, params.channel_id, "channel");
      api.core.messages.access(bot.botUserId, channelId);
      const messageId = known(api, params.message_id, "message");
      // `attachments` in an edit lists those to keep (reference v10); bots add none (spec 1.5).
      const raw = req.json();
      const obj = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
      const { attachments, ...rest } = obj ?? {};
      const b = validateMessagePayload(obj ? rest : raw, api.flakes, { partial: true });
      const m = api.core.messages.editAs(bot.botUserId, channelId, messageId, {
        attachments: attachments === undefined ? undefined : keepAttachmentsIn(attachments, api.flakes),
        content: b.has.content ? b.content : undefined,
        embeds: b.has.embeds ? b.embeds : undefined,
        components: b.has.components ? b.components : undefined,
        flags: b.has.flags ? b.flags : undefined,
        allowedMentions: b.allowedMentions,
      });
      // The bot's own edit answers what it wrote (the visibility rule's own-message exemption);
      // a flags-only edit of another's message stays gated.
      return ok(shown(req, m));
    },
  }),
  route({
    method: "DELETE",
    path: "/channels/{channel_id}/messages/{message_id}",
    summary: "Delete a message",
    caller: "bot",
    limit: { limit: 5, windowMs: 1000 },
    handler: ({ ctx: api, params, caller: bot, auditReason }) => {
      const channelId = known(api, params.channel_id, "channel");
      api.core.messages.deleteAs(bot.botUserId, channelId, known(api, params.message_id, "message"), auditReason);
      return noContent();
    },
  }),
  route({
    method: "POST",
    path: "/channels/{channel_id}/messages/bulk-delete",
    summary: "Delete 2 to 100 recent messages at once",
    caller: "bot",
    body: BulkDeleteBody,
    handler: (req) => {
      const { ctx: api, params, caller: bot, auditReason } = req;
      const channelId = known(api, params.channel_id, "channel");
      api.core.messages.access(bot.botUserId, channelId);
      const body = req.body();
      const flakes = body.messages.map(String);
      if (new Set(flakes).size !== flakes.length) throw DomainError.invalid("messages", "Duplicate message ids", "BASE_TYPE_INVALID");
      flakes.forEach((f, i) => {
        if (!/^[0-9]{1,20}$/.test(f) || BigInt(f) >= 1n << 64n)
          throw DomainError.invalid(`messages[${i}]`, `Value "${f}" is not snowflake.`, "NUMBER_TYPE_COERCE");
      });
      api.core.moderation.bulkDelete(
        bot.botUserId,
        channelId,
        flakes.map((f) => ({ id: api.flakes.uuid(f), createdAt: Snowflakes.timestamp(f) })),
        auditReason,
      );
      return noContent();
    },
  }),
];
