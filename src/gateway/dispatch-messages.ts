/**
 * Message, reaction and typing events -> dispatches (spec 6.2, reference-gaps 4).
 */
import type { DomainEvent, MessageModel } from "../core";
import { messageJson } from "../wire/serializers/message";
import { memberJson } from "../wire/serializers/member";
import { namedViewers, visibilitySlots } from "../wire/visibility";
import { fastPathOn, type GatewayContext } from "./context";
import { fixed, once, type Audience, type Delivery } from "./deliveries";
import { contentViewer, GATES } from "./intents";
import type { Session } from "./session";

type MessageEvent = Extract<DomainEvent, { type: "message.created" | "message.updated" | "message.deleted" }>;
type ReactionEvent = Extract<DomainEvent, { type: "reaction.added" | "reaction.removed" }>;
type TypingEvent = Extract<DomainEvent, { type: "typing.started" }>;

function channelBots(aud: Audience, channelId: string, guildId: string | null): readonly string[] {
  return guildId ? aud.guildBots(guildId) : aud.dmBots(channelId);
}

export function messageDeliveries(ctx: GatewayContext, aud: Audience, e: MessageEvent): Delivery[] {
  const f = ctx.flakes;
  const intent = GATES.messages(e.guildId !== null);
  if (e.type === "message.deleted") {
    // Ephemeral messages belong to one person's client; bots never hear of them.
    if (e.ephemeralUserId) return [];
    const d: Record<string, unknown> = { id: f.of(e.messageId), channel_id: f.of(e.channelId) };
    if (e.guildId) d.guild_id = f.of(e.guildId);
    return [{ bots: channelBots(aud, e.channelId, e.guildId), t: "MESSAGE_DELETE", intent, payload: fixed(d), uniform: true }];
  }
  const row = ctx.core.messages.get(e.messageId);
  if (!row || row.ephemeral_user_id) return [];
  const bots = channelBots(aud, e.channelId, e.guildId);
  if (!bots.length) return [];
  const model = ctx.core.reads.messages.message(row, { member: true, viewerId: null });
  // Per viewer when it has reactions (their `me`), or names a bot that listens (content rule).
  const uniform = !model.reactions?.length && !namedViewers(model).some((id) => aud.hasSessions(id));
  return [
    { bots, t: e.type === "message.created" ? "MESSAGE_CREATE" : "MESSAGE_UPDATE", intent, payload: messageViews(ctx, model), uniform },
  ];
}

/**
 * MESSAGE_CREATE/UPDATE views: with or without content (the one visibility rule), and
 * per viewer only when reactions exist (their `me` differs per bot).
 */
function messageViews(ctx: GatewayContext, model: MessageModel): (s: Session) => string {
  const cache = new Map<string, string>();
  const perViewer = (model.reactions?.length ?? 0) > 0;
  const visibility = visibilitySlots(model);
  // Asked once per session of every message: the views without reactions skip the map.
  const shared: (string | undefined)[] = [];
  const viewOf = (slot: number) => ({ content: (slot & 1) !== 0, referencedContent: (slot & 2) !== 0, gateway: true });
  if (!fastPathOn(ctx, "messageViews"))
    return (s) => {
      const slot = visibility(contentViewer(s));
      const seen = perViewer ? { ...model, reactions: ctx.core.reads.messages.reactions(model.message.id, s.owner.botUserId) } : model;
      return JSON.stringify(messageJson(ctx.flakes, seen, viewOf(slot)));
    };
  return (s) => {
    const slot = visibility(contentViewer(s));
    if (!perViewer) return (shared[slot] ??= JSON.stringify(messageJson(ctx.flakes, model, viewOf(slot))));
    const key = `${slot}:${s.owner.botUserId}`;
    let d = cache.get(key);
    if (d === undefined) {
      const seen = { ...model, reactions: ctx.core.reads.messages.reactions(model.message.id, s.owner.botUserId) };
      d = JSON.stringify(messageJson(ctx.flakes, seen, viewOf(slot)));
      cache.set(key, d);
    }
    return d;
  };
}

export function reactionDeliveries(ctx: GatewayContext, aud: Audience, e: ReactionEvent): Delivery[] {
  const bots = channelBots(aud, e.channelId, e.guildId);
  if (!bots.length) return [];
  const f = ctx.flakes;
  const add = e.type === "reaction.added";
  const d = once(() => {
    const emoji: Record<string, unknown> = { id: f.ofNullable(e.emoji.id), name: e.emoji.name };
    if (e.emoji.animated) emoji.animated = true;
    const out: Record<string, unknown> = { user_id: f.of(e.userId), channel_id: f.of(e.channelId), message_id: f.of(e.messageId) };
    if (e.guildId) out.guild_id = f.of(e.guildId);
    if (add && e.guildId) {
      const member = ctx.core.reads.guilds.member(e.guildId, e.userId);
      if (member) out.member = memberJson(f, member);
    }
    out.emoji = emoji;
    if (add) out.message_author_id = f.of(e.messageAuthorId);
    out.burst = false;
    if (add) out.burst_colors = [];
    out.type = 0;
    return JSON.stringify(out);
  });
  const t = add ? "MESSAGE_REACTION_ADD" : "MESSAGE_REACTION_REMOVE";
  return [{ bots, t, intent: GATES.reactions(e.guildId !== null), payload: d, uniform: true }];
}

export function typingDeliveries(ctx: GatewayContext, aud: Audience, e: TypingEvent): Delivery[] {
  const bots = channelBots(aud, e.channelId, e.guildId);
  if (!bots.length) return [];
  const f = ctx.flakes;
  const d = once(() => {
    const out: Record<string, unknown> = { channel_id: f.of(e.channelId) };
    if (e.guildId) out.guild_id = f.of(e.guildId);
    out.user_id = f.of(e.userId);
    out.timestamp = Math.floor(e.at / 1000);
    if (e.guildId) {
      const member = ctx.core.reads.guilds.member(e.guildId, e.userId);
      if (member) out.member = memberJson(f, member);
    }
    return JSON.stringify(out);
  });
  return [{ bots, t: "TYPING_START", intent: GATES.typing(e.guildId !== null), payload: d, uniform: true }];
}
