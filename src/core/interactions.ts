import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Users } from "./users";
import type { Applications } from "./applications";
import type { Messages } from "./messages";
import { EPHEMERAL } from "./messages";
import { OPT, type Commands, type Command, type CommandOption } from "./commands";
import type { ApplicationRow, ChannelRow, MessageRow } from "./types";
import { DomainError } from "./errors";
import { randomSecret, sha256Hex } from "./crypto";
import { hasPermission } from "./permissions";

export const INTERACTION_TTL_MS = 15 * 60 * 1000;
export const LOADING = 1 << 7;
/** Flags a response or follow-up may set: SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2. */
const SETTABLE_FLAGS = 4 | EPHEMERAL | 4096 | 32768;

export const INTERACTION_TYPE = { APPLICATION_COMMAND: 2, MESSAGE_COMPONENT: 3 } as const;
export const CALLBACK = { PONG: 1, MESSAGE: 4, DEFERRED_MESSAGE: 5, DEFERRED_UPDATE: 6, UPDATE: 7, AUTOCOMPLETE: 8, MODAL: 9 } as const;

export type InteractionState = "pending" | "deferred" | "responded" | "expired";

export interface InteractionRow {
  id: string;
  application_id: string;
  type: number;
  token_hash: string;
  user_id: string;
  guild_id: string | null;
  channel_id: string;
  message_id: string | null;
  command_id: string | null;
  data: string;
  state: string;
  ephemeral: number;
  response_message_id: string | null;
  created_at: number;
  expires_at: number;
}

/** An option as stored on the interaction: id-typed values hold internal ids. */
export interface StoredOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: StoredOption[];
}

export type InteractionData =
  | { kind: "command"; commandId: string; commandGuildId: string | null; name: string; type: number; options: StoredOption[] }
  | { kind: "component"; customId: string; componentType: number; values?: string[] };

/** An option as a person gives it; ids in the surface's own form, turned into internal ids by `resolveId`. */
export interface RawOption {
  name: string;
  value?: unknown;
  options?: RawOption[];
}

export interface ResponseMessage {
  content?: string;
  embeds?: unknown[];
  components?: unknown[];
  flags?: number;
  tts?: boolean;
}

export interface Invocation {
  interaction: InteractionRow;
  delivered: boolean;
}

interface Delivery {
  /** Whether the bot user has a live gateway session now; the spec drops interactions otherwise. */
  live: (botUserId: string) => boolean;
}

/** 0 guild, 1 the bot's DM, 2 another private channel (reference-gaps 4.1). */
export function interactionContext(row: Pick<InteractionRow, "guild_id">, botInChannel: boolean): 0 | 1 | 2 {
  if (row.guild_id) return 0;
  return botInChannel ? 1 : 2;
}

function bad(path: string, message: string, code = "BASE_TYPE_INVALID"): never {
  throw DomainError.invalid(path, message, code);
}

const unknownInteraction = () => new DomainError("unknown_interaction", "Unknown interaction");

/**
 * Interactions (spec 3.1): a person runs a command or clicks a component, the bot gets
 * INTERACTION_CREATE and answers through the token. Tokens are stored as SHA-256 only;
 * the plaintext lives in memory just long enough to be put into INTERACTION_CREATE (and
 * never longer than the token's own 15 minutes), because the payload must carry it.
 */
export class Interactions {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly apps: Applications,
    private readonly commands: Commands,
    private readonly messages: Messages,
  ) {
    d.bus.subscribe((e) => {
      if (e.type === "world.reset") this.tokens.clear();
    });
  }

  private get db() {
    return this.d.store.db;
  }

  get(id: string): InteractionRow | null {
    return this.db.query("SELECT * FROM interactions WHERE id = ?").get(id) as InteractionRow | null;
  }

  data(row: InteractionRow): InteractionData {
    return JSON.parse(row.data) as InteractionData;
  }

  state(row: InteractionRow): InteractionState {
    if (row.state === "expired" || this.d.clock.now() >= row.expires_at) return "expired";
    return row.state as InteractionState;
  }

  /** The plaintext token for the INTERACTION_CREATE payload; null once dispatched long enough ago to expire. */
  tokenFor(id: string): string | null {
    const t = this.tokens.get(id);
    if (!t) return null;
    if (this.d.clock.now() >= t.expiresAt) {
      this.tokens.delete(id);
      return null;
    }
    return t.token;
  }

  // ---- invocation by people ----

  /** A person runs a slash (or context-menu) command in a channel. */
  runCommand(
    input: { userId: string; channelId: string; applicationId: string; name: string; type?: number; options?: RawOption[]; resolveId: (raw: string) => string | null },
    delivery: Delivery,
  ): Invocation {
    const app = this.apps.get(input.applicationId);
    if (!app) throw DomainError.notFound("application");
    const ch = this.requireVisibleChannel(input.channelId, input.userId);
    const botHere = this.botReaches(app, ch);
    if (!botHere) bad("application_id", "The application is not available in this channel", "APPLICATION_NOT_AVAILABLE");
    const type = input.type ?? 1;
    const cmd = this.commands.findByName(app.id, ch.guild_id, input.name, type);
    const ctx = interactionContext({ guild_id: ch.guild_id }, true);
    if (!cmd || (!ch.guild_id && !cmd.body.dm_permission) || (cmd.body.contexts && !cmd.body.contexts.includes(ctx)))
      bad("name", "Unknown application command", "APPLICATION_COMMAND_UNKNOWN");
    this.checkMemberMayUse(cmd, ch, input.userId);
    if (type !== 1 && input.options?.length) bad("options", "Context menu commands take no options", "APPLICATION_COMMAND_OPTIONS_INVALID");
    const options = this.checkOptions(cmd.body.options, input.options ?? [], "options", ch, input.resolveId);
    const data: InteractionData = { kind: "command", commandId: cmd.id, commandGuildId: cmd.guild_id, name: cmd.name, type: cmd.body.type, options };
    return this.open(app, ch, input.userId, INTERACTION_TYPE.APPLICATION_COMMAND, null, cmd.id, data, delivery);
  }

  /** A person clicks a button or picks select values on a bot's message. */
  clickComponent(input: { userId: string; channelId: string; messageId: string; customId: string; values?: string[] }, delivery: Delivery): Invocation {
    const ch = this.requireVisibleChannel(input.channelId, input.userId);
    const m = this.messages.require(ch.id, input.messageId, input.userId);
    const app = (m.application_id && this.apps.get(m.application_id)) || this.apps.byBotUser(m.author_id);
    if (!app) bad("message_id", "This message holds no application's components", "COMPONENT_UNKNOWN");
    if (!this.botReaches(app, ch)) bad("message_id", "The application is not available in this channel", "APPLICATION_NOT_AVAILABLE");
    const comp = findComponent(JSON.parse(m.components), input.customId);
    if (!comp) bad("custom_id", "No component with this custom_id on the message", "COMPONENT_UNKNOWN");
    const ctype = Number(comp.type);
    if (ctype >= 5 && ctype <= 8) bad("custom_id", "This select menu is shown greyed out and cannot be used", "COMPONENT_NOT_INTERACTIVE");
    if (ctype !== 2 && ctype !== 3) bad("custom_id", "This component is not interactive", "COMPONENT_NOT_INTERACTIVE");
    if (comp.disabled) bad("custom_id", "This component is disabled", "COMPONENT_DISABLED");
    const data: InteractionData = { kind: "component", customId: input.customId, componentType: ctype };
    if (ctype === 2) {
      if (input.values !== undefined) bad("values", "A button takes no values", "BASE_TYPE_INVALID");
    } else {
      const values = input.values ?? [];
      const allowed = new Set(((comp.options as { value: string }[] | undefined) ?? []).map((o) => o.value));
      const min = typeof comp.min_values === "number" ? comp.min_values : 1;
      const max = typeof comp.max_values === "number" ? comp.max_values : 1;
      if (values.length < min || values.length > max) bad("values", `Pick between ${min} and ${max} values`, "BASE_TYPE_BAD_LENGTH");
      values.forEach((v, i) => {
        if (!allowed.has(v)) bad(`values[${i}]`, "Not one of the select menu's options", "BASE_TYPE_CHOICES");
      });
      if (new Set(values).size !== values.length) bad("values", "Values must be unique", "BASE_TYPE_INVALID");
      data.values = values;
    }
    return this.open(app, ch, input.userId, INTERACTION_TYPE.MESSAGE_COMPONENT, m.id, null, data, delivery);
  }

  private open(
    app: ApplicationRow,
    ch: ChannelRow,
    userId: string,
    type: number,
    messageId: string | null,
    commandId: string | null,
    data: InteractionData,
    delivery: Delivery,
  ): Invocation {
    const now = this.d.clock.now();
    for (const [id, t] of this.tokens) if (now >= t.expiresAt) this.tokens.delete(id);
    const delivered = delivery.live(app.bot_user_id);
    const token = randomSecret(48);
    const row: InteractionRow = {
      id: this.d.ids.next(),
      application_id: app.id,
      type,
      token_hash: sha256Hex(token),
      user_id: userId,
      guild_id: ch.guild_id,
      channel_id: ch.id,
      message_id: messageId,
      command_id: commandId,
      data: JSON.stringify(data),
      // Spec 3.1: with no live session the interaction is dropped, not queued; it is kept
      // (already expired) only so a test can see what happened to it.
      state: delivered ? "pending" : "expired",
      ephemeral: 0,
      response_message_id: null,
      created_at: now,
      expires_at: delivered ? now + INTERACTION_TTL_MS : now,
    };
    this.d.store.write(() => {
      this.db
        .query(
          `INSERT INTO interactions (id, application_id, type, token_hash, user_id, guild_id, channel_id, message_id, command_id, data, state, ephemeral,
             response_message_id, created_at, expires_at)
           VALUES ($id, $application_id, $type, $token_hash, $user_id, $guild_id, $channel_id, $message_id, $command_id, $data, $state, $ephemeral,
             $response_message_id, $created_at, $expires_at)`,
        )
        .run(row as never);
      if (delivered) {
        this.tokens.set(row.id, { token, expiresAt: row.expires_at });
        this.d.store.emit({ type: "interaction.created", interactionId: row.id, applicationId: app.id });
      }
    });
    return { interaction: row, delivered };
  }

  private requireVisibleChannel(channelId: string, userId: string): ChannelRow {
    const ch = this.guilds.channel(channelId);
    if (!ch || !this.messages.canSee(ch, userId)) throw DomainError.notFound("channel");
    return ch;
  }

  /** The bot is a member of the guild, or a recipient of the DM. */
  private botReaches(app: ApplicationRow, ch: ChannelRow): boolean {
    return this.messages.canSee(ch, app.bot_user_id);
  }

  private checkMemberMayUse(cmd: Command, ch: ChannelRow, userId: string): void {
    const need = cmd.body.default_member_permissions;
    if (!ch.guild_id || need === null) return;
    const have = this.guilds.permissions(ch.guild_id, userId, ch.id);
    const bits = Number(need);
    const ok = bits === 0 ? hasPermission(have, 1 << 3) : hasPermission(have, bits);
    if (!ok) throw DomainError.forbidden("You lack the permissions this command requires");
  }

  /** Check a person's options against the stored command (value types, choices, bounds, ids). */
  private checkOptions(defs: CommandOption[], given: RawOption[], path: string, ch: ChannelRow, resolveId: (raw: string) => string | null): StoredOption[] {
    if (!Array.isArray(given)) bad(path, "Must be an array.", "BASE_TYPE_ARRAY");
    if (given.length > 25) bad(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
    const subs = defs.some((d) => d.type === OPT.SUB_COMMAND || d.type === OPT.SUB_COMMAND_GROUP);
    if (subs) {
      if (given.length !== 1) bad(path, "Pick exactly one sub-command", "APPLICATION_COMMAND_OPTIONS_INVALID");
      const g = given[0];
      const def = defs.find((d) => d.name === g.name);
      if (!def) bad(`${path}[0].name`, "Unknown sub-command", "APPLICATION_COMMAND_OPTIONS_INVALID");
      return [{ name: def.name, type: def.type, options: this.checkOptions(def.options ?? [], g.options ?? [], `${path}[0].options`, ch, resolveId) }];
    }
    const seen = new Set<string>();
    const out = given.map((g, i) => {
      const p = `${path}[${i}]`;
      const def = defs.find((d) => d.name === g?.name);
      if (!def) bad(`${p}.name`, "Unknown option", "APPLICATION_COMMAND_OPTIONS_INVALID");
      if (seen.has(def.name)) bad(`${p}.name`, "Option given twice", "APPLICATION_COMMAND_OPTIONS_INVALID");
      seen.add(def.name);
      if (g.options !== undefined) bad(`${p}.options`, "Only sub-commands take options", "APPLICATION_COMMAND_OPTIONS_INVALID");
      return { name: def.name, type: def.type, value: this.checkValue(def, g.value, `${p}.value`, ch, resolveId) };
    });
    for (const d of defs) if (d.required && !seen.has(d.name)) bad(path, `The option "${d.name}" is required`, "APPLICATION_COMMAND_OPTIONS_REQUIRED");
    return out;
  }

  private checkValue(def: CommandOption, v: unknown, path: string, ch: ChannelRow, resolveId: (raw: string) => string | null): string | number | boolean {
    const choices = def.choices;
    const inChoices = (x: unknown) => !choices || choices.some((c) => c.value === x);
    const id = (): string | null => (typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v)) ? resolveId(String(v)) : null);
    switch (def.type) {
      case OPT.STRING: {
        if (typeof v !== "string") bad(path, "Could not interpret the value as string.", "BASE_TYPE_STRING");
        const min = def.min_length ?? 0;
        const max = def.max_length ?? 6000;
        if (v.length < min || v.length > max) bad(path, `Must be between ${min} and ${max} in length.`, "BASE_TYPE_BAD_LENGTH");
        if (!inChoices(v)) bad(path, "Value is not one of the accepted choices.", "BASE_TYPE_CHOICES");
        return v;
      }
      case OPT.INTEGER:
      case OPT.NUMBER: {
        if (typeof v !== "number" || !Number.isFinite(v) || (def.type === OPT.INTEGER && !Number.isSafeInteger(v)))
          bad(path, `Value "${String(v)}" is not ${def.type === OPT.INTEGER ? "an integer" : "a number"}.`, "NUMBER_TYPE_COERCE");
        if (def.min_value != null && v < def.min_value) bad(path, `Must be greater than or equal to ${def.min_value}.`, "NUMBER_TYPE_MIN");
        if (def.max_value != null && v > def.max_value) bad(path, `Must be less than or equal to ${def.max_value}.`, "NUMBER_TYPE_MAX");
        if (!inChoices(v)) bad(path, "Value is not one of the accepted choices.", "BASE_TYPE_CHOICES");
        return v;
      }
      case OPT.BOOLEAN:
        if (typeof v !== "boolean") bad(path, "Must be either true or false.", "BASE_TYPE_BOOLEAN");
        return v;
      case OPT.USER:
      case OPT.MENTIONABLE: {
        const uid = id();
        const u = uid ? this.users.get(uid) : null;
        if (u && !u.deleted_at) return u.id;
        if (def.type === OPT.MENTIONABLE && uid && ch.guild_id && this.guilds.role(ch.guild_id, uid)) return uid;
        return bad(path, def.type === OPT.USER ? "Unknown user" : "Unknown user or role", "APPLICATION_COMMAND_OPTIONS_INVALID");
      }
      case OPT.ROLE: {
        const rid = id();
        if (!rid || !ch.guild_id || !this.guilds.role(ch.guild_id, rid)) bad(path, "Unknown role", "APPLICATION_COMMAND_OPTIONS_INVALID");
        return rid;
      }
      case OPT.CHANNEL: {
        const cid = id();
        const c = cid ? this.guilds.channel(cid) : null;
        const reachable = c && (ch.guild_id ? c.guild_id === ch.guild_id : c.id === ch.id);
        if (!c || !reachable) bad(path, "Unknown channel", "APPLICATION_COMMAND_OPTIONS_INVALID");
        if (def.channel_types && def.channel_types.length && !def.channel_types.includes(c.type))
          bad(path, "This channel type is not accepted", "APPLICATION_COMMAND_OPTIONS_INVALID");
        return c.id;
      }
      default:
        return bad(path, "Attachments cannot be sent: Parley takes no file uploads", "APPLICATION_COMMAND_OPTIONS_INVALID");
    }
  }

  // ---- answering (the token in the path is the credential) ----

  /** The live interaction a token belongs to; 10062 when unknown, never issued or expired. */
  byToken(token: string): InteractionRow {
    const row = this.db.query("SELECT * FROM interactions WHERE token_hash = ?").get(sha256Hex(token)) as InteractionRow | null;
    if (!row || this.state(row) === "expired") throw unknownInteraction();
    return row;
  }

  /** As byToken, for the application webhook routes: the application in the path must be the interaction's. */
  forApplication(appId: string | null, token: string): InteractionRow {
    const row = this.byToken(token);
    if (row.application_id !== appId) throw unknownInteraction();
    return row;
  }

  /**
   * POST /interactions/{id}/{token}/callback, every row of spec 3.1. Answers the
   * interaction after the call and the message the callback posted or edited, if any.
   */
  callback(interactionId: string | null, token: string, type: number, msg: ResponseMessage | undefined): { interaction: InteractionRow; message: MessageRow | null } {
    return this.d.store.write(() => {
      const row = this.byToken(token);
      if (row.id !== interactionId) throw unknownInteraction();
      if (!(Object.values(CALLBACK) as number[]).includes(type)) bad("type", "Value is not one of the accepted choices.", "BASE_TYPE_CHOICES");
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
  followup(appId: string | null, token: string, msg: ResponseMessage): MessageRow {
    return this.d.store.write(() => {
      const row = this.forApplication(appId, token);
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

  /** The message `@original` or a follow-up id names, for GET/PATCH/DELETE. */
  message(appId: string | null, token: string, target: string): { interaction: InteractionRow; message: MessageRow } {
    const row = this.forApplication(appId, token);
    const id = target === "@original" ? row.response_message_id : target;
    const m = id ? this.messages.get(id) : null;
    const ours = m && (m.id === row.response_message_id || m.interaction_id === row.id);
    if (!m || !ours) throw DomainError.notFound("message");
    return { interaction: row, message: m };
  }

  /** PATCH: replace-or-keep (spec 4 rule 4); editing the loading message answers a deferral. */
  edit(appId: string | null, token: string, target: string, patch: ResponseMessage): MessageRow {
    return this.d.store.write(() => {
      const { interaction, message } = this.message(appId, token, target);
      const m = this.editMessage(message, patch);
      if (interaction.state === "deferred" && message.id === interaction.response_message_id)
        this.settle(interaction, "responded", message.id, interaction.ephemeral === 1);
      return m;
    });
  }

  delete(appId: string | null, token: string, target: string): void {
    this.d.store.write(() => {
      const { message } = this.message(appId, token, target);
      this.messages.delete(message.id);
    });
  }

  /** Every message this interaction produced (response first, then follow-ups), ephemeral included. */
  producedMessages(row: InteractionRow): { response: MessageRow | null; followups: MessageRow[] } {
    const response = row.response_message_id ? this.messages.get(row.response_message_id) : null;
    const followups = (this.db.query("SELECT * FROM messages WHERE interaction_id = ? ORDER BY id").all(row.id) as MessageRow[]).filter(
      (m) => m.id !== row.response_message_id,
    );
    return { response, followups };
  }

  private componentMessage(row: InteractionRow): MessageRow {
    const m = row.message_id ? this.messages.get(row.message_id) : null;
    if (!m) throw DomainError.notFound("message");
    return m;
  }

  /** A new message by the bot in the interaction's channel; EPHEMERAL is honoured only when it answers. */
  private postResponse(row: InteractionRow, msg: ResponseMessage, answering: boolean, extraFlags: number): MessageRow {
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
      type: row.type === INTERACTION_TYPE.APPLICATION_COMMAND ? 20 : 0,
      applicationId: app.id,
      interactionId: row.id,
      ephemeralUserId: ephemeral ? row.user_id : null,
    });
  }

  private editMessage(m: MessageRow, patch: ResponseMessage): MessageRow {
    // LOADING goes once real content arrives; EPHEMERAL never changes; SUPPRESS_EMBEDS may be set or cleared.
    let flags = m.flags & ~LOADING;
    if (patch.flags !== undefined) flags = (flags & ~4) | (patch.flags & 4);
    return this.messages.edit(m.id, { content: patch.content, embeds: patch.embeds, components: patch.components, flags });
  }

  private settle(row: InteractionRow, state: "deferred" | "responded", responseId: string | null, ephemeral: boolean): InteractionRow {
    const eph = ephemeral ? 1 : 0;
    this.db.query("UPDATE interactions SET state = ?, response_message_id = ?, ephemeral = ? WHERE id = ?").run(state, responseId, eph, row.id);
    return { ...row, state, response_message_id: responseId, ephemeral: eph };
  }
}

function requireNotEmpty(msg: ResponseMessage | undefined): void {
  const empty = !msg || ((msg.content ?? "") === "" && !(msg.embeds?.length) && !(msg.components?.length));
  if (empty) bad("content", "Cannot send an empty message", "MESSAGE_EMPTY");
}

/** The interactive component with this custom_id, searching rows and (components v2) nested containers. */
function findComponent(components: unknown, customId: string): Record<string, unknown> | null {
  if (!Array.isArray(components)) return null;
  for (const c of components) {
    if (!c || typeof c !== "object") continue;
    const o = c as Record<string, unknown>;
    if (o.custom_id === customId && o.type !== 1) return o;
    const inner = findComponent(o.components, customId) ?? (o.accessory ? findComponent([o.accessory], customId) : null);
    if (inner) return inner;
  }
  return null;
}
