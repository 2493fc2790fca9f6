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
import { HarnessFiles, openFiles, sealFiles, upload, uploadSealed, type HarnessFile, type OpenedFile } from "./files";
import { padContent, type MessageContent, type SealedFile } from "../e2e";

export const DmBody = Type.Object(
  {
    recipient_id: Type.Union([Snowflake, Type.String({ minLength: 1, maxLength: 100 })]),
    content: Type.String({ maxLength: MAX_CONTENT }),
    /** Files as base64, encrypted by the person's client before they are uploaded (files.ts). */
    files: Type.Optional(HarnessFiles),
  },
  { additionalProperties: false },
);

/** What a person writes in a DM: text, files, or both (a bot's plaintext DM also takes embeds). */
export interface DmWrite {
  content: string;
  embeds?: unknown[];
  files?: HarnessFile[];
}

function plaintext(content: string, files = 0): void {
  if (content.length > MAX_CONTENT)
    throw DomainError.invalid("content", `Must be ${MAX_CONTENT} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
  if (content.trim() === "" && !files) throw DomainError.invalid("content", "Cannot send an empty message", "BASE_TYPE_REQUIRED");
}

/** A text and its files' facts fit the largest padding bucket, as the web client checks before it sends. */
function fits(content: MessageContent): void {
  if (!padContent(content))
    throw DomainError.invalid(
      "files",
      "The message and its files' names and descriptions are too long to encrypt: shorten them or send fewer files",
      "BASE_TYPE_MAX_LENGTH",
    );
}

/**
 * What a harness read adds to a DM message for a person: its text, or why there is none,
 * and its files as the person's client opened them (`data` null: it did not decrypt).
 */
export type DmReading = {
  content?: string;
  service_e2e_state?: "decrypted" | "before_device" | "failed";
  service_e2e_files?: OpenedFile[];
};

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

  async send(me: User, channelId: string, w: DmWrite, replyTo: string | null): Promise<Message> {
    const core = this.p.core;
    const files = w.files?.length ? w.files : undefined;
    if (this.plaintextChannel(channelId)) {
      const attachments = files && (await upload(core, me.id, channelId, files));
      return core.people.send(me.id, channelId, { content: w.content, embeds: w.embeds, replyTo, attachments });
    }
    if (w.embeds?.length)
      throw DomainError.invalid("embeds", "Direct messages between people carry text and files only", "BASE_TYPE_INVALID");
    plaintext(w.content, files?.length);
    await this.devicesFor(channelId);
    const sealed = files ? await sealFiles(files) : [];
    const content = { text: w.content, files: sealed.map((s) => s.file) };
    fits(content); // before a byte is uploaded
    const attachments = files && (await uploadSealed(core, me.id, channelId, sealed, files));
    const ciphertext = await this.devices.seal(me, channelId, content, null);
    return core.people.send(me.id, channelId, { ciphertext, replyTo, attachments });
  }

  /** A person edits their own DM: the new text is encrypted again, bound to the message it replaces, with its files. */
  async edit(me: User, m: Message, content: string): Promise<Message> {
    if (this.plaintextChannel(m.channel_id)) {
      plaintext(content);
      return this.p.core.people.edit(me.id, m.channel_id, m.id, { content });
    }
    if (m.author_id !== me.id) throw DomainError.forbidden("You can only edit your own messages");
    const files = await this.filesToKeep(me, m);
    plaintext(content, files.length);
    fits({ text: content, files });
    await this.devicesFor(m.channel_id);
    const ciphertext = await this.devices.seal(me, m.channel_id, { text: content, files }, m.id);
    return this.p.core.people.edit(me.id, m.channel_id, m.id, { ciphertext });
  }

  /** What an edit seals again of a message's files: what its sealed text says, read with the author's harness device. */
  private async filesToKeep(me: User, m: Message): Promise<SealedFile[]> {
    if (!this.p.core.messages.files.of(m.id).length) return [];
    const r = await this.devices.open(me, m);
    if (r.state !== "ok")
      throw DomainError.invalid("content", "This device cannot read the message, so an edit would lose its files", "BASE_TYPE_INVALID");
    return r.files ?? [];
  }

  /** Open the DM with a user (if need be) and send its first or next message. */
  async open(me: User, other: User, w: DmWrite): Promise<{ channel: string; message: string }> {
    plaintext(w.content, w.files?.length);
    // The ciphertext is bound to the channel, so the channel comes first, as in a real client.
    const channel = this.p.core.people.openDm(me.id, other.id);
    const message = await this.send(me, channel.id, w, null);
    return { channel: channel.id, message: message.id };
  }

  /** A person's client shows a DM's text and files; a bot sees only the envelope (spec 1.6). */
  async plaintextFor(m: Message, viewer: User | null): Promise<DmReading> {
    if (m.ciphertext === null || !viewer || viewer.kind === "bot") return {};
    const r = await this.devices.open(viewer, m);
    if (r.state === "ok" && r.files)
      return { content: r.text, service_e2e_state: "decrypted", service_e2e_files: await openFiles(this.p.core, m, r.files) };
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
      summary: "Send a direct message as a person, with files if any (their client encrypts it all)",
      body: DmBody,
      handler: async ({ params, body }) => {
        const me = look.person(params.user);
        const b = body();
        const other = look.user(idString(b.recipient_id));
        const { channel, message } = await client.open(me, other, { content: b.content, files: b.files });
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
