import type { CoreDeps } from "./deps";
import { statement } from "./statement";
import type { Applications } from "./applications";
import type { Messages } from "./messages";
import { EPHEMERAL, MESSAGE_TYPE, SUPPRESS_EMBEDS } from "./messages";
import type { Message } from "./models";
import { DomainError } from "./errors";
import { sha256Hex } from "./crypto";
import type { Interaction } from "./models";
import { CALLBACK, INTERACTION_TYPE, LOADING, type Interactions, type ResponseMessage } from "./interactions";
import { INTERACTION_COLUMNS } from "./rows";

/** Flags a response or follow-up may set: SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2. */
const SETTABLE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | 4096 | 32768;

function bad(path: string, message: string, code = "BASE_TYPE_INVALID"): never {
  throw DomainError.invalid(path, message, code);
}

const unknownInteraction = () => new DomainError("unknown_interaction", "Unknown interaction");

/**
 * Answering interactions (spec 3.1): the bot's callback, follow-ups and edits of the
 * response, through the interaction's token. authorize() checks the token once; every
 * operation then re-reads the interaction's state inside its own transaction.
 */
export class InteractionResponses {
  private readonly byTokenHash;

  constructor(
    private readonly d: CoreDeps,
    private readonly apps: Applications,
    private readonly messages: Messages,
    private readonly interactions: Interactions,
  ) {
    this.byTokenHash = statement(d.store, `SELECT ${INTERACTION_COLUMNS()} FROM interactions WHERE token_hash = ?`);
  }

  /**
   * The interaction a token belongs to, if the token is live (spec 3.1: unknown, never
   * issued or expired is 10062) and it matches the interaction id or application id the
   * path names. This is the one credential check; the operations below take its answer.
   */
  authorize(token: string, match: { interactionId?: string | null; applicationId?: string | null }): Interaction {
    const row = this.byTokenHash().get(sha256Hex(token)) as Interaction | null;
    if (!row || this.interactions.state(row) === "expired") throw unknownInteraction();
    if (match.interactionId !== undefined && row.id !== match.interactionId) throw unknownInteraction();
    if (match.applicationId !== undefined && row.application_id !== match.applicationId) throw unknownInteraction();
    return row;
  }

  /** Whether this token was ever issued for an interaction (live or not). */
  issued(token: string): boolean {
    return this.byTokenHash().get(sha256Hex(token)) !== null;
  }

  /**
   * The authorized interaction as it is now (its state may have moved since), still live.
   * `settling`: inside a write that may move its state, held until the write ends, so
   * that two nodes answering one interaction at once see each other's answer (the second
   * gets 40060, or becomes a follow-up) rather than both answering (Store.serialize).
   */
  private current(auth: Interaction, settling = false): Interaction {
    if (settling) this.d.store.serialize(`interaction:${auth.id}`);
    const row = this.interactions.get(auth.id);
    if (!row || this.interactions.state(row) === "expired") throw unknownInteraction();
    return row;
  }

  /**
   * POST /interactions/{id}/{token}/callback, every row of spec 3.1. Answers the
   * interaction after the call and the message the callback posted or edited, if any.
   */
  callback(auth: Interaction, type: number, msg: ResponseMessage | undefined): { interaction: Interaction; message: Message | null } {
    return this.d.store.write(() => {
      const row = this.current(auth, true);
      if (!(Object.values(CALLBACK) as number[]).includes(type))
        bad("type", "Value is not one of the accepted choices.", "BASE_TYPE_CHOICES");
      if (row.state !== "pending") throw new DomainError("already_acknowledged", "Interaction has already been acknowledged.");
      if (type === CALLBACK.AUTOCOMPLETE || type === CALLBACK.MODAL)
        throw new DomainError("not_implemented_invalid", "Invalid Form Body (type: autocomplete results and modals are not supported)", [
          { path: "type", code: "INTERACTION_CALLBACK_TYPE_UNSUPPORTED", message: "Autocomplete results and modals are not supported" },
        ]);
      const component = row.type === INTERACTION_TYPE.MESSAGE_COMPONENT;
      if ((type === CALLBACK.DEFERRED_UPDATE || type === CALLBACK.UPDATE) && !component)
        bad("type", "This callback type is only valid for component interactions", "INTERACTION_CALLBACK_TYPE_INVALID");
      switch (type) {
        case CALLBACK.PONG:
          return { interaction: row, message: null };
        case CALLBACK.MESSAGE: {
          requireNotEmpty(msg);
          const m = this.postResponse(row, msg ?? {}, true, 0);
          return { interaction: this.settle(row, "responded", m.id, !!m.ephemeral_user_id), message: m };
        }
        case CALLBACK.DEFERRED_MESSAGE: {
          const m = this.postResponse(row, { flags: (msg?.flags ?? 0) & EPHEMERAL }, true, LOADING);
          return { interaction: this.settle(row, "deferred", m.id, !!m.ephemeral_user_id), message: m };
        }
        case CALLBACK.DEFERRED_UPDATE:
          return { interaction: this.settle(row, "deferred", row.message_id, false), message: null };
        default: {
          const m = this.editMessage(this.componentMessage(row), msg ?? {});
          return { interaction: this.settle(row, "responded", m.id, !!m.ephemeral_user_id), message: m };
        }
      }
    });
  }

  /**
   * POST /webhooks/{application_id}/{token}: while pending or deferred this is the
   * response (after a type-5 deferral it fills the loading message, the reference's
   * legacy behaviour); afterwards a public follow-up message.
   */
  followup(auth: Interaction, msg: ResponseMessage): Message {
    return this.d.store.write(() => {
      const row = this.current(auth, true);
      requireNotEmpty(msg);
      if (row.state === "pending") {
        const m = this.postResponse(row, msg, true, 0);
        this.settle(row, "responded", m.id, !!m.ephemeral_user_id);
        return m;
      }
      if (row.state === "deferred") {
        const loading = row.response_message_id ? this.messages.get(row.response_message_id) : null;
        if (loading && loading.flags & LOADING) {
          const m = this.editMessage(loading, { ...msg, flags: undefined });
          this.settle(row, "responded", m.id, !!m.ephemeral_user_id);
          return m;
        }
        // A type-6 deferral: @original stays the component's message; this post answers.
        const m = this.postResponse(row, msg, true, 0);
        this.settle(row, "responded", row.response_message_id, false);
        return m;
      }
      return this.postResponse(row, msg, false, 0);
    });
  }

  /** The message `@original` or a follow-up id names, for GET/PATCH/DELETE (`settling`: see current()). */
  message(auth: Interaction, target: string, settling = false): { interaction: Interaction; message: Message } {
    const row = this.current(auth, settling);
    const id = target === "@original" ? row.response_message_id : target;
    const m = id ? this.messages.get(id) : null;
    const ours = m && (m.id === row.response_message_id || m.interaction_id === row.id);
    if (!m || !ours) throw DomainError.notFound("message");
    return { interaction: row, message: m };
  }

  /** PATCH: replace-or-keep (spec 4 rule 4); editing the loading message answers a deferral. */
  edit(auth: Interaction, target: string, patch: ResponseMessage): Message {
    return this.d.store.write(() => {
      const { interaction, message } = this.message(auth, target, true);
      const m = this.editMessage(message, patch);
      if (interaction.state === "deferred" && message.id === interaction.response_message_id)
        this.settle(interaction, "responded", message.id, interaction.ephemeral === 1);
      return m;
    });
  }

  delete(auth: Interaction, target: string): void {
    this.d.store.write(() => {
      const { message } = this.message(auth, target);
      this.messages.delete(message.id);
    });
  }

  /** Every message this interaction produced (response first, then follow-ups), ephemeral included. */
  producedMessages(row: Interaction): { response: Message | null; followups: Message[] } {
    const response = row.response_message_id ? this.messages.get(row.response_message_id) : null;
    const followups = (
      this.d.store.db.query("SELECT * FROM messages WHERE interaction_id = ? ORDER BY id").all(row.id) as Message[]
    ).filter((m) => m.id !== row.response_message_id);
    return { response, followups };
  }

  private componentMessage(row: Interaction): Message {
    const m = row.message_id ? this.messages.get(row.message_id) : null;
    if (!m) throw DomainError.notFound("message");
    return m;
  }

  /** A new message by the bot in the interaction's channel; EPHEMERAL is honoured only when it answers. */
  private postResponse(row: Interaction, msg: ResponseMessage, answering: boolean, extraFlags: number): Message {
    const app = this.apps.require(row.application_id);
    let flags = (msg.flags ?? 0) & SETTABLE_FLAGS;
    if (!answering) flags &= ~EPHEMERAL;
    const ephemeral = (flags & EPHEMERAL) !== 0;
    return this.messages.create({
      channelId: row.channel_id,
      authorId: app.bot_user_id,
      content: msg.content ?? "",
      embeds: msg.embeds ?? [],
      components: msg.components ?? [],
      flags: flags | extraFlags,
      tts: msg.tts ?? false,
      allowedMentions: msg.allowedMentions,
      type: row.type === INTERACTION_TYPE.APPLICATION_COMMAND ? MESSAGE_TYPE.CHAT_INPUT_COMMAND : MESSAGE_TYPE.DEFAULT,
      applicationId: app.id,
      interactionId: row.id,
      ephemeralUserId: ephemeral ? row.user_id : null,
    });
  }

  private editMessage(m: Message, patch: ResponseMessage): Message {
    // LOADING goes once real content arrives; EPHEMERAL never changes; SUPPRESS_EMBEDS may be set or cleared.
    let flags = m.flags & ~LOADING;
    if (patch.flags !== undefined) flags = (flags & ~SUPPRESS_EMBEDS) | (patch.flags & SUPPRESS_EMBEDS);
    return this.messages.edit(m.id, {
      content: patch.content,
      embeds: patch.embeds,
      components: patch.components,
      flags,
      allowedMentions: patch.allowedMentions,
    });
  }

  private settle(row: Interaction, state: "deferred" | "responded", responseId: string | null, ephemeral: boolean): Interaction {
    const eph = ephemeral ? 1 : 0;
    this.d.store.db
      .query("UPDATE interactions SET state = ?, response_message_id = ?, ephemeral = ? WHERE id = ?")
      .run(state, responseId, eph, row.id);
    if (state !== row.state)
      this.d.store.emit({
        type: "interaction.updated",
        interactionId: row.id,
        applicationId: row.application_id,
        userId: row.user_id,
        channelId: row.channel_id,
        state,
      });
    return { ...row, state, response_message_id: responseId, ephemeral: eph };
  }
}

function requireNotEmpty(msg: ResponseMessage | undefined): void {
  const empty = !msg || ((msg.content ?? "") === "" && !msg.embeds?.length && !msg.components?.length);
  if (empty) bad("content", "Cannot send an empty message", "MESSAGE_EMPTY");
}
