/**
 * Acting as the people around a bot (design/harness.md): send a message, react, and
 * read a channel as a person sees it. Every action goes through the same core operations
 * as the people's API (core/people.ts, messages.ts, reactions.ts); ids are snowflakes
 * and people are named by their seed name or snowflake. Direct messages are in dms.ts.
 */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { HarnessContext } from "./context";
import { DomainError, MAX_CONTENT } from "../core";
import { parseEmoji } from "../wire/emoji";
import { Snowflake } from "../wire/validation";
import { embedsIn, textIn } from "../wire/mentions";
import { handler, readBody } from "./http";
import { Lookup } from "./lookup";
import { harnessMessage } from "./views";
import type { DmClient } from "./dms";

type Ctx = { request: Request; params: Record<string, string> };

const Embed = Type.Object({}, { additionalProperties: true });
export const SayBody = Type.Object(
  {
    channel_id: Snowflake,
    content: Type.String({ maxLength: MAX_CONTENT }),
    embeds: Type.Optional(Type.Array(Embed, { maxItems: 10 })),
    reply_to: Type.Optional(Snowflake),
  },
  { additionalProperties: false },
);
export const ReactBody = Type.Object(
  { channel_id: Snowflake, message_id: Snowflake, emoji: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

function pageOf(p: HarnessContext, q: URLSearchParams) {
  const limitRaw = q.get("limit");
  const limit = limitRaw === null ? 50 : Number(limitRaw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw DomainError.invalid("limit", "Must be between 1 and 100.", "NUMBER_TYPE_MAX");
  const before = q.get("before");
  const after = q.get("after");
  return { limit, before: before ? p.flakes.bound(before, false) : undefined, after: after ? p.flakes.bound(after, true) : undefined };
}

export function harnessPeople(p: HarnessContext, dms: DmClient) {
  const { core } = p;
  const look = new Lookup(p);

  /** Say something as a person: plaintext in servers (mentions as bots write them), ciphertext in DMs. */
  const say = handler<Ctx>(async ({ request, params }) => {
    const me = look.person(params.user);
    const b = await readBody(request, SayBody);
    const replyTo = b.reply_to === undefined ? null : look.internal(b.reply_to, "reference", "reply_to");
    const ch = core.people.channel(me.id, look.internal(b.channel_id, "channel", "channel_id"));
    const m = ch.guild_id
      ? core.people.send(me.id, ch.id, { content: textIn(b.content, p.flakes), embeds: b.embeds && embedsIn(b.embeds, p.flakes), replyTo })
      : await dms.send(me, ch.id, b.content, b.embeds, replyTo);
    return { id: p.flakes.of(m.id) };
  });

  /** A channel as a person sees it (ephemeral messages for them included), newest first. */
  const read = handler<Ctx>(async ({ request, params }) => {
    const q = new URL(request.url).searchParams;
    const as = q.get("as");
    const viewer = as === null ? null : look.user(as);
    const ch = core.guilds.requireChannel(look.internal(params.channel_id, "channel", "channel_id"));
    if (viewer && !core.people.canSee(ch, viewer.id)) throw DomainError.notFound("channel");
    const rows = core.messages.list(ch.id, pageOf(p, q), viewer?.id ?? null);
    return Promise.all(rows.map(async (m) => ({ ...harnessMessage(p, m, viewer?.id ?? null), ...(await dms.plaintextFor(m, viewer)) })));
  });

  const react = (add: boolean) =>
    handler<Ctx>(async ({ request, params }) => {
      const me = look.person(params.user);
      const b = await readBody(request, ReactBody);
      const ch = core.people.channel(me.id, look.internal(b.channel_id, "channel", "channel_id"));
      const messageId = look.internal(b.message_id, "message", "message_id");
      if (add) core.reactions.add(me.id, messageId, parseEmoji(b.emoji), { channelId: ch.id });
      else core.reactions.remove(me.id, messageId, parseEmoji(b.emoji), { channelId: ch.id });
    });

  return new Elysia()
    .post("/users/:user/messages", say)
    .get("/channels/:channel_id/messages", read)
    .put("/users/:user/reactions", react(true))
    .delete("/users/:user/reactions", react(false));
}
