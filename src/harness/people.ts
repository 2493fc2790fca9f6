/**
 * Acting as the people around a bot (design/harness.md): send a message, react, and
 * read a channel as a person sees it. Every action goes through the same core operations
 * as the people's API (core/people.ts, messages.ts, reactions.ts); ids are snowflakes
 * and people are named by their seed name or snowflake. Direct messages are in dms.ts.
 */
import { Type } from "@sinclair/typebox";
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { DomainError, MAX_CONTENT } from "../core";
import { parseEmoji } from "../wire/emoji";
import { shortValue, Snowflake } from "../wire/validation";
import { embedsIn, textIn } from "../wire/mentions";
import { EmbedSchema } from "../wire/embed-schema";
import { route } from "./http";
import { Lookup } from "./lookup";
import { harnessMessage } from "./views";
import type { DmClient } from "./dms";
import { HarnessFiles, upload } from "./files";

export const SayBody = Type.Object(
  {
    channel_id: Snowflake,
    content: Type.String({ maxLength: MAX_CONTENT }),
    embeds: Type.Optional(Type.Array(EmbedSchema, { maxItems: 10 })),
    reply_to: Type.Optional(Snowflake),
    /** Files the person attaches (issue 31): bytes as base64, through the same upload slots as the web client (files.ts). */
    files: Type.Optional(HarnessFiles),
  },
  { additionalProperties: false },
);
export const PinBody = Type.Object({ channel_id: Snowflake, message_id: Snowflake }, { additionalProperties: false });
export const ReactBody = Type.Object(
  { channel_id: Snowflake, message_id: Snowflake, emoji: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

function pageOf(p: HarnessContext, q: URLSearchParams) {
  const limitRaw = q.get("limit");
  const limit = limitRaw === null ? 50 : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw DomainError.invalid("limit", "Must be between 1 and 100.", "NUMBER_TYPE_MAX");
  const before = q.get("before");
  const after = q.get("after");
  // As the bot API answers: a bound that is no snowflake is refused, not read as "nothing there".
  for (const [field, v] of [
    ["before", before],
    ["after", after],
  ] as const)
    if (v && !/^(0|[1-9][0-9]{0,19})$/.test(v))
      throw DomainError.invalid(field, `Value "${shortValue(v)}" is not snowflake.`, "NUMBER_TYPE_COERCE");
  return { limit, before: before ? p.flakes.bound(before, false) : undefined, after: after ? p.flakes.bound(after, true) : undefined };
}

/** Pin or unpin as a person: the same core operation as the people's and the bot API's (Manage Messages). */
function pinRoute(p: HarnessContext, look: Lookup, add: boolean): Route<HarnessContext> {
  return route({
    method: add ? "PUT" : "DELETE",
    path: "/users/{user}/pins",
    caller: "harness",
    summary: add ? "Pin a message as a person (Manage Messages)" : "Unpin a message as a person",
    body: PinBody,
    handler: ({ params, body }) => {
      const me = look.person(params.user);
      const b = body();
      const channelId = look.internal(b.channel_id, "channel", "channel_id");
      const messageId = look.internal(b.message_id, "message", "message_id");
      if (add) p.core.pins.pin(me.id, channelId, messageId);
      else p.core.pins.unpin(me.id, channelId, messageId);
    },
  });
}

export function harnessPeople(p: HarnessContext, dms: DmClient): Route<HarnessContext>[] {
  const { core } = p;
  const look = new Lookup(p);

  const react = (add: boolean) =>
    route({
      method: add ? "PUT" : "DELETE",
      path: "/users/{user}/reactions",
      caller: "harness",
      summary: add ? "React as a person" : "Take a person's reaction back",
      body: ReactBody,
      handler: ({ params, body }) => {
        const me = look.person(params.user);
        const b = body();
        const ch = core.people.channel(me.id, look.internal(b.channel_id, "channel", "channel_id"));
        const messageId = look.internal(b.message_id, "message", "message_id");
        // A server's emoji as bots write it (`name:snowflake`).
        const emoji = parseEmoji(b.emoji, p.flakes);
        if (add) core.reactions.add(me.id, messageId, emoji, { channelId: ch.id });
        else core.reactions.remove(me.id, messageId, emoji, { channelId: ch.id });
      },
    });

  return [
    /** Say something as a person: plaintext in servers (mentions as bots write them), ciphertext in DMs. */
    route({
      method: "POST",
      path: "/users/{user}/messages",
      caller: "harness",
      summary: "Say something as a person (files as base64; a DM's encrypted as a client does)",
      body: SayBody,
      handler: async ({ params, body }) => {
        const me = look.person(params.user);
        const b = body();
        const replyTo = b.reply_to === undefined ? null : look.internal(b.reply_to, "reference", "reply_to");
        const ch = core.people.channel(me.id, look.internal(b.channel_id, "channel", "channel_id"));
        const m = ch.guild_id
          ? core.people.send(me.id, ch.id, {
              content: textIn(b.content, p.flakes),
              embeds: b.embeds && embedsIn(b.embeds, p.flakes),
              replyTo,
              attachments: b.files?.length ? await upload(core, me.id, ch.id, b.files) : undefined,
            })
          : await dms.send(me, ch.id, { content: b.content, embeds: b.embeds, files: b.files }, replyTo);
        return { id: p.flakes.of(m.id) };
      },
    }),
    /** A channel as a person sees it (ephemeral messages for them included), newest first. */
    route({
      method: "GET",
      path: "/channels/{channel_id}/messages",
      caller: "harness",
      summary: "Read a channel as a person sees it (as, limit, before, after)",
      handler: ({ params, query }) => {
        const as = query.get("as");
        const viewer = as === null ? null : look.user(as);
        const ch = core.guilds.requireChannel(look.internal(params.channel_id, "channel", "channel_id"));
        if (viewer && !core.people.canSee(ch, viewer.id)) throw DomainError.notFound("channel");
        const rows = core.messages.list(ch.id, pageOf(p, query), viewer?.id ?? null);
        return Promise.all(
          rows.map(async (m) => ({ ...harnessMessage(p, m, viewer?.id ?? null), ...(await dms.plaintextFor(m, viewer)) })),
        );
      },
    }),
    react(true),
    react(false),
    pinRoute(p, look, true),
    pinRoute(p, look, false),
  ];
}
