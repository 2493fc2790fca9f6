import { Type } from "@sinclair/typebox";
import type { Reply, Req, RouteDef } from "../http";
import { noContent, ok } from "../http";
import type { ChannelRow, MessageRow } from "../../core/types";
import { DomainError } from "../../core/errors";
import { INTENTS } from "../../core/permissions";
import { Snowflakes } from "../../wire/snowflakes";
import { Snowflake } from "../../wire/validation";
import { validateMessagePayload } from "../schemas/message";
import { messageJson } from "../../wire/serializers/message";
import { flakeParam, known, limitParam } from "./ids";

const BulkDeleteBody = Type.Object({ messages: Type.Array(Snowflake, { minItems: 2, maxItems: 100 }) });

/**
 * MESSAGE_CONTENT gating on REST uses the token's intents (spec 5.7, 5.9): without it,
 * content, embeds, components and attachments of server messages are withheld. A bot's
 * own messages are the one exemption: there is nothing to withhold from their author,
 * and discord.js caches the gateway echo of a sent message before the POST answer, so a
 * stripped echo would make `await channel.send("x")` resolve to a message without its
 * content. Messages that mention the bot stay gated (the reference exempts them; the
 * spec names no exemption and wins where the two differ). DMs are not server messages.
 */
export function contentVisible(req: Req, m: MessageRow): boolean {
  if (req.bot.intents & INTENTS.MESSAGE_CONTENT) return true;
  if (m.author_id === req.bot.botUserId && !m.webhook_id) return true;
  const ch = req.api.core.guilds.channel(m.channel_id);
  return !ch || ch.guild_id === null;
}

export function botMessageJson(req: Req, m: MessageRow) {
  return messageJson(req.api, m, { content: contentVisible(req, m), viewerId: req.bot.botUserId });
}

export const messageRoutes: RouteDef[] = [
  {
    method: "POST",
    path: "/channels/{channel_id}/messages",
    auth: "bot",
    handler: async (req) => {
      const { api, params, bot } = req;
      const channelId = known(api, params.channel_id, "channel");
      // The body is read first but judged only after the channel check, so the answers keep
      // their order (404 unknown channel, then 400 bad body, then 403) while the channel and
      // the permissions are read once, in the same transaction as the insert.
      let raw: unknown;
      let unreadable: unknown = null;
      try {
        raw = await req.json();
      } catch (e) {
        unreadable = e ?? new Error("unreadable body");
      }
      let channel: ChannelRow | undefined;
      let fresh = false;
      const m = api.core.store.write(() => {
        const sent = api.core.messages.send(bot.botUserId, channelId, (a) => {
          channel = a.channel;
          if (unreadable) throw unreadable;
          const body = validateMessagePayload(raw, { rawLength: req.bodyLength() });
          if (body.reference && body.reference.type !== 0) throw DomainError.notImplemented("501: Not Implemented. Message forwarding is not supported by Parley.");
          // Without enforce_nonce every post inserts a new message; with it, an earlier one may come back.
          fresh = !(body.enforceNonce && body.nonce);
          return {
            content: body.content ?? "",
            embeds: body.embeds ?? [],
            components: body.components ?? [],
            flags: body.flags ?? 0,
            nonce: body.nonce,
            enforceNonce: body.enforceNonce,
            tts: body.tts,
            allowEveryone: body.allowEveryone,
            reference: body.reference
              ? { messageId: body.reference.messageId ? api.flakes.uuid(body.reference.messageId) : null, failIfNotExists: body.reference.failIfNotExists }
              : null,
          };
        });
        // Minted inside the post's transaction: one commit per message, not two.
        api.flakes.of(sent.id);
        return sent;
      });
      return ok(messageJson(api, m, { content: true, viewerId: bot.botUserId, channel, fresh }));
    },
  },
  {
    method: "GET",
    path: "/channels/{channel_id}/messages",
    auth: "bot",
    handler: (req) => {
      const { api, params, query, bot } = req;
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
      return ok(rows.map((m) => botMessageJson(req, m)));
    },
  },
  {
    method: "GET",
    path: "/channels/{channel_id}/messages/{message_id}",
    auth: "bot",
    handler: (req) => {
      const { api, params, bot } = req;
      const channelId = known(api, params.channel_id, "channel");
      const m = api.core.messages.fetch(bot.botUserId, channelId, known(api, params.message_id, "message"));
      return ok(botMessageJson(req, m));
    },
  },
  {
    method: "PATCH",
    path: "/channels/{channel_id}/messages/{message_id}",
    auth: "bot",
    handler: async (req) => {
      const { api, params, bot } = req;
      const channelId = known(api, params.channel_id, "channel");
      api.core.messages.access(bot.botUserId, channelId);
      const messageId = known(api, params.message_id, "message");
      const b = validateMessagePayload(await req.json(), { partial: true });
      const m = api.core.messages.editAs(bot.botUserId, channelId, messageId, {
        content: b.has.content ? b.content : undefined,
        embeds: b.has.embeds ? b.embeds : undefined,
        components: b.has.components ? b.components : undefined,
        flags: b.has.flags ? b.flags : undefined,
        allowEveryone: b.allowEveryone,
      });
      // The bot's own edit answers what it wrote; a flags-only edit of another's message stays gated.
      return ok(m.author_id === bot.botUserId ? messageJson(api, m, { content: true, viewerId: bot.botUserId }) : botMessageJson(req, m));
    },
  },
  {
    method: "DELETE",
    path: "/channels/{channel_id}/messages/{message_id}",
    auth: "bot",
    handler: ({ api, params, bot, auditReason }) => {
      const channelId = known(api, params.channel_id, "channel");
      api.core.messages.deleteAs(bot.botUserId, channelId, known(api, params.message_id, "message"), auditReason);
      return noContent();
    },
  },
  {
    method: "POST",
    path: "/channels/{channel_id}/messages/bulk-delete",
    auth: "bot",
    handler: async (req) => {
      const { api, params, bot, auditReason } = req;
      const channelId = known(api, params.channel_id, "channel");
      api.core.messages.access(bot.botUserId, channelId);
      const body = await req.body(BulkDeleteBody);
      const flakes = body.messages.map(String);
      if (new Set(flakes).size !== flakes.length) throw DomainError.invalid("messages", "Duplicate message ids", "BASE_TYPE_INVALID");
      flakes.forEach((f, i) => {
        if (!/^[0-9]{1,20}$/.test(f) || BigInt(f) >= 1n << 64n) throw DomainError.invalid(`messages[${i}]`, `Value "${f}" is not snowflake.`, "NUMBER_TYPE_COERCE");
      });
      api.core.messages.bulkDelete(
        bot.botUserId,
        channelId,
        flakes.map((f) => ({ id: api.flakes.uuid(f), createdAt: Snowflakes.timestamp(f) })),
        auditReason,
      );
      return noContent();
    },
  },
];
