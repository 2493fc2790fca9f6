/**
 * Acting as the people around a bot (design/harness.md): send a message, react, send
 * a direct message, and read a channel as a person sees it. Every action goes through
 * the same person rules as the people's API (core/people.ts); ids are snowflakes and
 * people are named by their seed name or snowflake.
 */
import { Elysia } from "elysia";
import { parseEmoji } from "../wire/emoji";
import { Type } from "@sinclair/typebox";
import type { Parley } from "../app";
import type { MessageRow, UserRow } from "../core/types";
import { DomainError } from "../core/errors";
import { MAX_CONTENT } from "../core/people";
import { EPHEMERAL } from "../core/messages";
import { Snowflake, idString } from "../wire/validation";
import { messageJson } from "../wire/serializers/message";
import { handler, readBody } from "./http";
import { DmKeys } from "./e2e";

type Ctx = { request: Request; params: Record<string, string> };

const Embed = Type.Object({}, { additionalProperties: true });
const SayBody = Type.Object(
  {
    channel_id: Snowflake,
    content: Type.String({ maxLength: 4000 }),
    embeds: Type.Optional(Type.Array(Embed, { maxItems: 10 })),
    reply_to: Type.Optional(Snowflake),
  },
  { additionalProperties: false },
);
const ReactBody = Type.Object(
  { channel_id: Snowflake, message_id: Snowflake, emoji: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
const DmBody = Type.Object({ recipient_id: Type.Union([Snowflake, Type.String({ minLength: 1, maxLength: 100 })]), content: Type.String({ maxLength: 4000 }) }, { additionalProperties: false });

export function harnessPeople(p: Parley) {
  const { core, api } = p;
  const keys = new DmKeys();
  core.bus.subscribe((e) => {
    if (e.type === "world.reset") keys.clear();
  });

  /** A user by seed name (people first, then bot users by application name) or snowflake. */
  const user = (ref: string): UserRow => {
    let u: UserRow | null = null;
    if (/^[0-9]{17,20}$/.test(ref)) {
      const id = api.flakes.uuid(ref);
      u = id ? core.users.get(id) : null;
    } else {
      u =
        core.users.byUsername(ref) ??
        (p.store.db.query("SELECT * FROM users WHERE kind = 'bot' AND username = ? AND deleted_at IS NULL ORDER BY id LIMIT 1").get(ref) as UserRow | null);
    }
    if (!u || u.deleted_at) throw DomainError.notFound("user");
    return u;
  };
  const personNamed = (ref: string): UserRow => {
    const u = user(ref);
    if (u.kind !== "person") throw DomainError.invalid("user", "The harness acts as people; bots act through the bot API", "BASE_TYPE_INVALID");
    return u;
  };
  const internal = (flake: string | number, what: string, path: string): string => {
    const id = api.flakes.uuid(idString(flake));
    if (!id) throw what === "reference" ? DomainError.invalid(path, "Unknown message", "UNKNOWN_REFERENCE") : DomainError.notFound(what);
    return id;
  };
  const plaintext = (content: string) => {
    if (content.length > MAX_CONTENT) throw DomainError.invalid("content", `Must be ${MAX_CONTENT} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
    if (content.trim() === "") throw DomainError.invalid("content", "Cannot send an empty message", "BASE_TYPE_REQUIRED");
  };

  /** Send as the person's client would: plaintext in servers, ciphertext in DMs. */
  const send = async (me: UserRow, channelId: string, content: string, embeds?: unknown[], replyTo?: string | null): Promise<MessageRow> => {
    const ch = core.people.channel(me.id, channelId);
    if (ch.guild_id) return core.people.send(me.id, ch.id, { content, embeds, replyTo });
    if (embeds?.length) throw DomainError.invalid("embeds", "Direct messages between people carry text only", "BASE_TYPE_INVALID");
    plaintext(content);
    const key = keys.keyOf(ch.id) ?? (await keys.newKey());
    const ciphertext = await keys.encrypt(key, content);
    const m = core.people.send(me.id, ch.id, { ciphertext, replyTo });
    keys.bind(ch.id, key);
    return m;
  };

  /** A bot reading a DM sees only the envelope (spec 1.6); a person's client decrypts. */
  const view = async (m: MessageRow, viewer: UserRow | null) => {
    const out = messageJson(api, m, { content: true, viewerId: viewer?.id ?? null });
    if (m.ephemeral_user_id) out.flags = (m.flags | EPHEMERAL) >>> 0;
    if (m.ciphertext !== null && viewer?.kind !== "bot") {
      const text = await keys.decrypt(m.channel_id, m.ciphertext);
      if (text !== null) out.content = text;
    }
    return out;
  };

  return new Elysia()
    .post(
      "/users/:user/messages",
      handler<Ctx>(async ({ request, params }) => {
        const me = personNamed(params.user);
        const b = await readBody(request, SayBody);
        const replyTo = b.reply_to === undefined ? null : internal(b.reply_to, "reference", "reply_to");
        const m = await send(me, internal(b.channel_id, "channel", "channel_id"), b.content, b.embeds, replyTo);
        return { id: api.flakes.of(m.id) };
      }),
    )
    .get(
      "/channels/:channel_id/messages",
      handler<Ctx>(async ({ request, params }) => {
        const q = new URL(request.url).searchParams;
        const channelId = internal(params.channel_id, "channel", "channel_id");
        const as = q.get("as");
        const viewer = as === null ? null : user(as);
        const ch = core.guilds.requireChannel(channelId);
        if (viewer && !core.messages.canSee(ch, viewer.id)) throw DomainError.notFound("channel");
        const limitRaw = q.get("limit");
        const limit = limitRaw === null ? 50 : Number(limitRaw);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw DomainError.invalid("limit", "Must be between 1 and 100.", "NUMBER_TYPE_MAX");
        const before = q.get("before");
        const after = q.get("after");
        const rows = core.messages.list(
          ch.id,
          {
            limit,
            before: before ? api.flakes.bound(before, false) : undefined,
            after: after ? api.flakes.bound(after, true) : undefined,
          },
          viewer?.id ?? null,
        );
        return Promise.all(rows.map((m) => view(m, viewer)));
      }),
    )
    .put(
      "/users/:user/reactions",
      handler<Ctx>(async ({ request, params }) => {
        const me = personNamed(params.user);
        const b = await readBody(request, ReactBody);
        const ch = core.people.channel(me.id, internal(b.channel_id, "channel", "channel_id"));
        core.reactions.add(me.id, internal(b.message_id, "message", "message_id"), parseEmoji(b.emoji), { channelId: ch.id });
      }),
    )
    .delete(
      "/users/:user/reactions",
      handler<Ctx>(async ({ request, params }) => {
        const me = personNamed(params.user);
        const b = await readBody(request, ReactBody);
        const ch = core.people.channel(me.id, internal(b.channel_id, "channel", "channel_id"));
        core.reactions.remove(me.id, internal(b.message_id, "message", "message_id"), parseEmoji(b.emoji), { channelId: ch.id });
      }),
    )
    .post(
      "/users/:user/dms",
      handler<Ctx>(async ({ request, params }) => {
        const me = personNamed(params.user);
        const b = await readBody(request, DmBody);
        plaintext(b.content);
        const other = user(idString(b.recipient_id));
        // Encrypt before writing, so the DM channel and its first message commit together.
        const existing = core.people.dms(me.id).find((c) => core.messages.dmRecipients(c.id).includes(other.id));
        const key = (existing && keys.keyOf(existing.id)) || (await keys.newKey());
        const ciphertext = await keys.encrypt(key, b.content);
        const { channel, message } = p.store.write(() => {
          const channel = core.people.openDm(me.id, other.id);
          return { channel, message: core.people.send(me.id, channel.id, { ciphertext }) };
        });
        keys.bind(channel.id, key);
        return { channel_id: api.flakes.of(channel.id), id: api.flakes.of(message.id) };
      }),
    );
}
