/**
 * The harness plays each person's client for direct messages (design/harness.md): one
 * device per person (e2e.ts), with which it encrypts what a person sends and decrypts
 * what a person reads, so the server stores only ciphertext and a bot recipient sees
 * only the envelope (spec 1.6).
 */
import { Type } from "@sinclair/typebox";
import { DomainError, MAX_CONTENT, type Message, type User } from "../core";
import { Snowflake, idString } from "../wire/validation";
import { isoUtc } from "../wire/time";
import type { HarnessContext } from "./context";
import type { Route } from "../wire/route";
import { route } from "./http";
import { Lookup } from "./lookup";
import { HarnessDevices } from "./e2e";

export const DmBody = Type.Object(
  {
    recipient_id: Type.Union([Snowflake, Type.String({ minLength: 1, maxLength: 100 })]),
    content: Type.String({ maxLength: MAX_CONTENT }),
  },
  { additionalProperties: false },
);

function plaintext(content: string): void {
  if (content.length > MAX_CONTENT)
    throw DomainError.invalid("content", `Must be ${MAX_CONTENT} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
  if (content.trim() === "") throw DomainError.invalid("content", "Cannot send an empty message", "BASE_TYPE_REQUIRED");
}

/** What a harness read adds to a DM message for a person: its text, or why there is none. */
export type DmReading = { content?: string; service_e2e_state?: "decrypted" | "before_device" | "failed" };

/** A person's client in DMs: what it sends is encrypted, what it reads is decrypted. */
export class DmClient {
  readonly devices: HarnessDevices;

  constructor(private readonly p: HarnessContext) {
    this.devices = new HarnessDevices(p.core);
    p.core.bus.subscribe((e) => {
      if (e.type === "world.reset") this.devices.clear();
    });
  }

  /** Every person in the DM gets a harness device first, so each can read what is sent. */
  private async devicesFor(channelId: string): Promise<void> {
    for (const id of this.p.core.dms.recipients(channelId)) {
      const u = this.p.core.users.get(id);
      if (u?.kind === "person") await this.devices.of(u);
    }
  }

  /** A test world's plaintext DM with a bot (the reference_dms world option): the client sends text as on the reference. */
  private plaintextChannel(channelId: string): boolean {
    return this.p.core.guilds.requireChannel(channelId).e2e === 0;
  }

  async send(me: User, channelId: string, content: string, embeds: unknown[] | undefined, replyTo: string | null): Promise<Message> {
    if (this.plaintextChannel(channelId)) return this.p.core.people.send(me.id, channelId, { content, embeds, replyTo });
    if (embeds?.length) throw DomainError.invalid("embeds", "Direct messages between people carry text only", "BASE_TYPE_INVALID");
    plaintext(content);
    await this.devicesFor(channelId);
    const ciphertext = await this.devices.seal(me, channelId, content, null);
    return this.p.core.people.send(me.id, channelId, { ciphertext, replyTo });
  }

  /** A person edits their own DM: the new text is encrypted again, bound to the message it replaces. */
  async edit(me: User, m: Message, content: string): Promise<Message> {
    plaintext(content);
    if (this.plaintextChannel(m.channel_id)) return this.p.core.people.edit(me.id, m.channel_id, m.id, { content });
    if (m.author_id !== me.id) throw DomainError.forbidden("You can only edit your own messages");
    await this.devicesFor(m.channel_id);
    const ciphertext = await this.devices.seal(me, m.channel_id, content, m.id);
    return this.p.core.people.edit(me.id, m.channel_id, m.id, { ciphertext });
  }

  /** Open the DM with a user (if need be) and send its first or next message. */
  async open(me: User, other: User, content: string): Promise<{ channel: string; message: string }> {
    plaintext(content);
    // The ciphertext is bound to the channel, so the channel comes first, as in a real client.
    const channel = this.p.core.people.openDm(me.id, other.id);
    const message = await this.send(me, channel.id, content, undefined, null);
    return { channel: channel.id, message: message.id };
  }

  /** A person's client shows a DM's text; a bot sees only the envelope (spec 1.6). */
  async plaintextFor(m: Message, viewer: User | null): Promise<DmReading> {
    if (m.ciphertext === null || !viewer || viewer.kind === "bot") return {};
    const r = await this.devices.open(viewer, m);
    if (r.state === "ok") return { content: r.text, service_e2e_state: "decrypted" };
    // Sent after its device was removed: the server refuses that, so it was not sent through it.
    return { service_e2e_state: r.state === "removed_device" ? "failed" : r.state };
  }
}

export function harnessDms(p: HarnessContext, client: DmClient): Route<HarnessContext>[] {
  const look = new Lookup(p);
  return [
    route({
      method: "POST",
      path: "/users/{user}/dms",
      caller: "harness",
      summary: "Send a direct message as a person (their client encrypts it)",
      body: DmBody,
      handler: async ({ params, body }) => {
        const me = look.person(params.user);
        const b = body();
        const other = look.user(idString(b.recipient_id));
        const { channel, message } = await client.open(me, other, b.content);
        return { channel_id: p.flakes.of(channel), id: p.flakes.of(message) };
      },
    }),
    route({
      method: "POST",
      path: "/users/{user}/device",
      caller: "harness",
      summary: "Give a person the harness's device (its public keys), as their client would",
      handler: async ({ params }) => {
        const d = await client.devices.of(look.person(params.user));
        return { id: d.id, created_at: isoUtc(d.created_at) };
      },
    }),
  ];
}
