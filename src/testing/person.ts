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
    device: () => harness.call("POST", `/users/${u}/device`),
    react: (channel, message_id, emoji) => harness.call("PUT", `/users/${u}/reactions`, { channel_id: world.channelId(channel), message_id, emoji }),
    unreact: (channel, message_id, emoji) => harness.call("DELETE", `/users/${u}/reactions`, { channel_id: world.channelId(channel), message_id, emoji }),
    useOn: (channel, app, name, target) =>
      harness.call("POST", `/users/${u}/interactions`, {
        channel_id: world.channelId(channel),
        application_id: world.app(app).id,
        name,
        type: "user" in target ? 2 : 3,
        target_id: "user" in target ? target.user : target.message,
      }),
    edit: (messageId, content) => harness.call("PATCH", `/users/${u}/messages/${messageId}`, { content }),
    delete: (messageId) => harness.call("DELETE", `/users/${u}/messages/${messageId}`),
    type: (channel) => harness.call("POST", `/users/${u}/typing`, { channel_id: world.channelId(channel) }),
    invite: async (channel, o = {}) =>
      (await harness.call<{ code: string }>("POST", `/users/${u}/invites`, { channel_id: world.channelId(channel), max_age: o.maxAge, max_uses: o.maxUses })).code,
    join: async (code) => (await harness.call<{ guild_id: string }>("POST", `/users/${u}/invites/${encodeURIComponent(code)}`)).guild_id,
    leave: (guild) => harness.call("DELETE", `/users/${u}/guilds/${world.answer.guilds[guild]?.id ?? guild}`),
    interact: (body) => {
      const b: Record<string, unknown> = { ...body };
      if (typeof b.channel_id === "string") b.channel_id = world.channelId(b.channel_id);
      if (typeof b.application_id === "string" && world.answer.applications[b.application_id]) b.application_id = world.answer.applications[b.application_id].id;
      return harness.call("POST", `/users/${u}/interactions`, b);
    },
  };
}
