/**
 * The bot API's answers: a core read model through a wire serializer, with the viewer
 * the request is made by. Handlers call these and never build JSON by hand.
 */
import type { Channel, ChannelSnapshot, Member, Message, Webhook } from "../core";
import type { BotApi } from "./context";
import { messageJson } from "../wire/serializers/message";
import { channelJson } from "../wire/serializers/channel";
import { memberJson } from "../wire/serializers/member";
import { webhookJson } from "../wire/serializers/webhook";
import { messageVisibility, type ContentViewer } from "../wire/visibility";

export interface MessageOut {
  /** The bot the answer is for: reactions' `me`, and content gating by its token's intents. */
  viewer: ContentViewer | null;
  /** A message this very request created: it has no reactions to read. */
  fresh?: boolean;
  /** The message's channel row, when the handler already holds it. */
  channel?: Channel;
}

/** A message as a bot sees it through REST (spec 5.9: gated by the token's intents). */
export function messageOut(api: BotApi, m: Message, o: MessageOut): Record<string, unknown> {
  const model = api.core.reads.messages.message(m, { viewerId: o.viewer?.botUserId ?? null, reactions: !o.fresh, channel: o.channel });
  return messageJson(api.flakes, model, messageVisibility(o.viewer, model));
}

export function channelOut(api: BotApi, c: Channel, viewerId: string) {
  return channelJson(api.flakes, api.core.reads.guilds.channelOf(c), viewerId);
}

/** A deleted channel, from the snapshot the deletion answered. */
export function deletedChannelOut(api: BotApi, snap: ChannelSnapshot, viewerId: string) {
  return channelJson(api.flakes, api.core.reads.guilds.channelOf(snap.channel, snap.overwrites), viewerId);
}

export function memberOut(api: BotApi, m: Member) {
  return memberJson(api.flakes, api.core.reads.guilds.memberOf(m));
}

/** A webhook as one who may manage it (or holds its token) reads it: with its token. */
export function webhookOut(api: BotApi, w: Webhook, opts: { withUser: boolean }) {
  return webhookJson(api.flakes, api.core.reads.webhook(w), { ...opts, withToken: true, baseUrl: api.urls.base });
}
