import type { Person } from "./types";
import type { HarnessClient } from "./harness-client";
import type { World } from "./world";

/** The harness's person actions, for one person. */
export function personActions(harness: HarnessClient, world: World, user: string): Person {
  const u = encodeURIComponent(user);
  return {
    say: (channel, content, o = {}) =>
      harness.call("POST", `/users/${u}/messages`, {
        channel_id: world.channelId(channel),
        content,
        ...(o.embeds ? { embeds: o.embeds } : {}),
        ...(o.replyTo ? { reply_to: o.replyTo } : {}),
      }),
    dm: (recipient, content) => {
      const app = world.answer.applications[recipient];
      return harness.call("POST", `/users/${u}/dms`, { recipient_id: app ? app.bot_user_id : recipient, content });
    },
    react: (channel, message_id, emoji) => harness.call("PUT", `/users/${u}/reactions`, { channel_id: world.channelId(channel), message_id, emoji }),
    unreact: (channel, message_id, emoji) => harness.call("DELETE", `/users/${u}/reactions`, { channel_id: world.channelId(channel), message_id, emoji }),
    interact: (body) => {
      const b: Record<string, unknown> = { ...body };
      if (typeof b.channel_id === "string") b.channel_id = world.channelId(b.channel_id);
      if (typeof b.application_id === "string" && world.answer.applications[b.application_id]) b.application_id = world.answer.applications[b.application_id].id;
      return harness.call("POST", `/users/${u}/interactions`, b);
    },
  };
}
