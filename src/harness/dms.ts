/**
 * The harness plays each person's client for direct messages (design/harness.md): it
 * encrypts what a person sends and decrypts what a person reads, so the server stores
 * only ciphertext and a bot recipient sees only the envelope (spec 1.6).
 */
import { Elysia } from "elysia";
import { Type } from "@sinclair/typebox";
import type { MessageRow, UserRow } from "../core/types";
import { DomainError } from "../core/errors";
import { MAX_CONTENT } from "../core/people";
import { Snowflake, idString } from "../wire/validation";
import type { HarnessContext } from "./context";
import { handler, readBody } from "./http";
import { Lookup } from "./lookup";
import { DmKeys } from "./e2e";

type Ctx = { request: Request; params: Record<string, string> };

export const DmBody = Type.Object(
  { recipient_id: Type.Union([Snowflake, Type.String({ minLength: 1, maxLength: 100 })]), content: Type.String({ maxLength: 4000 }) },
  { additionalProperties: false },
);

function plaintext(content: string): void {
  if (content.length > MAX_CONTENT) throw DomainError.invalid("content", `Must be ${MAX_CONTENT} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
  if (content.trim() === "") throw DomainError.invalid("content", "Cannot send an empty message", "BASE_TYPE_REQUIRED");
}

/** A person's client in DMs: what it sends is encrypted, what it reads is decrypted. */
export class DmClient {
  private readonly keys = new DmKeys();

  constructor(private readonly p: HarnessContext) {
    p.core.bus.subscribe((e) => {
      if (e.type === "world.reset") this.keys.clear();
    });
  }

  async send(me: UserRow, channelId: string, content: string, embeds: unknown[] | undefined, replyTo: string | null): Promise<MessageRow> {
    if (embeds?.length) throw DomainError.invalid("embeds", "Direct messages between people carry text only", "BASE_TYPE_INVALID");
    plaintext(content);
    const key = this.keys.keyOf(channelId) ?? (await this.keys.newKey());
    const ciphertext = await this.keys.encrypt(key, content);
    const m = this.p.core.people.send(me.id, channelId, { ciphertext, replyTo });
    this.keys.bind(channelId, key);
    return m;
  }

  /** A person edits their own DM: the new text is encrypted again, as their client would. */
  async edit(me: UserRow, m: MessageRow, content: string): Promise<MessageRow> {
    plaintext(content);
    const key = this.keys.keyOf(m.channel_id) ?? (await this.keys.newKey());
    const ciphertext = await this.keys.encrypt(key, content);
    const edited = this.p.core.people.edit(me.id, m.channel_id, m.id, { ciphertext });
    this.keys.bind(m.channel_id, key);
    return edited;
  }

  /** Open the DM with a user (if need be) and send its first or next message, in one transaction. */
  async open(me: UserRow, other: UserRow, content: string): Promise<{ channel: string; message: string }> {
    const { core } = this.p;
    plaintext(content);
    // Encrypt before writing, so the DM channel and its first message commit together.
    const existing = core.dms.between(me.id, other.id);
    const key = (existing && this.keys.keyOf(existing.id)) || (await this.keys.newKey());
    const ciphertext = await this.keys.encrypt(key, content);
    const { channel, message } = core.transaction(() => {
      const channel = core.people.openDm(me.id, other.id);
      return { channel, message: core.people.send(me.id, channel.id, { ciphertext }) };
    });
    this.keys.bind(channel.id, key);
    return { channel: channel.id, message: message.id };
  }

  /** A person's client shows a DM's text; a bot sees only the envelope (spec 1.6). */
  async plaintextFor(m: MessageRow, viewer: UserRow | null): Promise<{ content?: string }> {
    if (m.ciphertext === null || viewer?.kind === "bot") return {};
    const text = await this.keys.decrypt(m.channel_id, m.ciphertext);
    return text === null ? {} : { content: text };
  }
}

export function harnessDms(p: HarnessContext, client: DmClient) {
  const look = new Lookup(p);
  return new Elysia().post(
    "/users/:user/dms",
    handler<Ctx>(async ({ request, params }) => {
      const me = look.person(params.user);
      const b = await readBody(request, DmBody);
      const other = look.user(idString(b.recipient_id));
      const { channel, message } = await client.open(me, other, b.content);
      return { channel_id: p.flakes.of(channel), id: p.flakes.of(message) };
    }),
  );
}
