/**
 * Pins (reference-gaps 2.9): the current routes under /messages/pins, with their
 * `{items, has_more}` page keyed by the ISO time of pinning, and the deprecated ones
 * under /pins that discord.py 2.x and discord.js's `fetchPinned()` still call. Both pin
 * through the same core operation (core/pins.ts: MANAGE_MESSAGES, 250 a channel, the
 * type 6 system message, audits 74/75); CHANNEL_PINS_UPDATE is never sent (spec 6.2).
 */
import { Type } from "@sinclair/typebox";
import { noContent, ok, route, type BotRoute, type Req } from "../http";
import { DomainError } from "../../core";
import { PINS_PAGE } from "../../core/index";
import { iso } from "../../wire/time";
import { messageOut } from "../present";
import { known, limitParam } from "./ids";

function target(req: Req) {
  const channelId = known(req.ctx, req.params.channel_id, "channel");
  const messageId = known(req.ctx, req.params.message_id, "message");
  return { channelId, messageId };
}

/** `before` is a pinned_at as ISO 8601 (not an id): 50035 when it is not a time. */
function beforeParam(v: string | null): number | null {
  if (v === null || v === "") return null;
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) throw DomainError.invalid("before", `Value "${v}" is not a valid ISO8601 timestamp.`, "DATE_TYPE_PARSE");
  return ms;
}

function pin(req: Req) {
  const { channelId, messageId } = target(req);
  req.ctx.core.pins.pin(req.caller.botUserId, channelId, messageId, req.auditReason);
  return noContent();
}

function unpin(req: Req) {
  const { channelId, messageId } = target(req);
  req.ctx.core.pins.unpin(req.caller.botUserId, channelId, messageId, req.auditReason);
  return noContent();
}

const PIN_PATH = "/channels/{channel_id}/messages/pins/{message_id}";
const OLD_PIN_PATH = "/channels/{channel_id}/pins/{message_id}";

export const pinRoutes: BotRoute[] = [
  route({
    method: "GET",
    path: "/channels/{channel_id}/messages/pins",
    summary: "A channel's pinned messages, most recently pinned first (before: ISO pinned_at; limit 1-50)",
    query: Type.Object({ before: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PINS_PAGE })) }),
    caller: "bot",
    handler: (req) => {
      const channelId = known(req.ctx, req.params.channel_id, "channel");
      const limit = limitParam(req.query.get("limit"), PINS_PAGE, 1, PINS_PAGE);
      const before = beforeParam(req.query.get("before"));
      const page = req.ctx.core.pins.list(req.caller.botUserId, channelId, { before, limit });
      const items = page.items.map((i) => ({
        pinned_at: iso(i.pinnedAt),
        message: messageOut(req.ctx, i.message, { viewer: req.caller }),
      }));
      return ok({ items, has_more: page.hasMore });
    },
  }),
  route({ method: "PUT", path: PIN_PATH, summary: "Pin a message (MANAGE_MESSAGES)", caller: "bot", handler: pin }),
  route({ method: "DELETE", path: PIN_PATH, summary: "Unpin a message (MANAGE_MESSAGES)", caller: "bot", handler: unpin }),
  route({
    method: "GET",
    path: "/channels/{channel_id}/pins",
    summary: "Deprecated: the 50 most recently pinned messages",
    caller: "bot",
    handler: (req) => {
      const channelId = known(req.ctx, req.params.channel_id, "channel");
      return ok(req.ctx.core.pins.listLatest(req.caller.botUserId, channelId).map((m) => messageOut(req.ctx, m, { viewer: req.caller })));
    },
  }),
  route({ method: "PUT", path: OLD_PIN_PATH, summary: "Deprecated: pin a message (MANAGE_MESSAGES)", caller: "bot", handler: pin }),
  route({ method: "DELETE", path: OLD_PIN_PATH, summary: "Deprecated: unpin a message (MANAGE_MESSAGES)", caller: "bot", handler: unpin }),
];
