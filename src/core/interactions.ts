import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import type { Users } from "./users";
import type { Applications } from "./applications";
import type { Messages } from "./messages";
import type { Commands, Command } from "./commands";
import { OptionChecker, type RawOption } from "./interaction-options";
import { checkGivenFile, handFiles } from "./interaction-files";
import { UPLOAD_TTL_MS } from "./media";
import type { AllowedMentions } from "./mentions";
import type { Application, Channel, Interaction, InteractionData } from "./models";
import { INTERACTION_COLUMNS, modelOf, type InteractionRow } from "./rows";
import { DomainError } from "./errors";
import { randomSecret, sha256Hex } from "./crypto";
import { hasPermission } from "./permissions";
import { canSee, dmRecipientIds } from "./access";

export { RawOptionSchema, RawOptionsSchema, type RawOption, type StoredOption } from "./interaction-options";
export type { InteractionData } from "./models";

export const INTERACTION_TTL_MS = 15 * 60 * 1000;
/** The reference's first-response window (reference-gaps 5.1), enforced only where a test world asks for it. */
export const FIRST_RESPONSE_MS = 3000;
export const LOADING = 1 << 7;

export const INTERACTION_TYPE = { APPLICATION_COMMAND: 2, MESSAGE_COMPONENT: 3 } as const;
export const CALLBACK = { PONG: 1, MESSAGE: 4, DEFERRED_MESSAGE: 5, DEFERRED_UPDATE: 6, UPDATE: 7, AUTOCOMPLETE: 8, MODAL: 9 } as const;

export type InteractionState = "pending" | "deferred" | "responded" | "expired";

/** Command types (spec 2.4). */
export const COMMAND_TYPE = { CHAT_INPUT: 1, USER: 2, MESSAGE: 3 } as const;

/** A person running a command, as a surface hands it over. */
export interface CommandInvocation {
  userId: string;
  channelId: string;
  applicationId: string;
  name: string;
  type?: number;
  options?: RawOption[];
  /** Ids in the surface's own form (snowflakes, or internal ids) to internal ids; null when unknown. */
  resolveId: (raw: string) => string | null;
  /** A context-menu command's target, already an internal id (null: an id that names nothing). */
  targetId?: string | null;
}

export interface ResponseMessage {
  allowedMentions?: AllowedMentions | null;
  content?: string;
  embeds?: unknown[];
  components?: unknown[];
  flags?: number;
  tts?: boolean;
}

export interface Invocation {
  interaction: Interaction;
  delivered: boolean;
}

interface Delivery {
  /** Whether the bot user has a live gateway session now; the spec drops interactions otherwise. */
  live: (botUserId: string) => boolean;
}

/** 0 guild, 1 the bot's DM, 2 another private channel (reference-gaps 4.1). */
export function interactionContext(row: Pick<Interaction, "guild_id">, botInChannel: boolean): 0 | 1 | 2 {
  if (row.guild_id) return 0;
  return botInChannel ? 1 : 2;
}

function bad(path: string, message: string, code = "BASE_TYPE_INVALID"): never {
  throw DomainError.invalid(path, message, code);
}

/**
 * Interactions (spec 3.1): a person runs a command or clicks a component, the bot gets
 * INTERACTION_CREATE and answers through the token. Tokens are stored as SHA-256 only;
 * the plaintext lives in memory just long enough to be put into INTERACTION_CREATE (and
 * never longer than the token's own 15 minutes), because the payload must carry it.
 */
export class Interactions {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  /**
   * The first-response deadline: null (the spec: an unanswered interaction lives its whole
   * 15 minutes), or FIRST_RESPONSE_MS in a test world that asks for the reference's rule,
   * where an interaction still pending after it expires (10062) as on the reference.
   */
  private firstResponseMs: number | null = null;

  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly apps: Applications,
    private readonly commands: Commands,
    private readonly messages: Messages,
  ) {
    d.bus.subscribe((e) => {
      if (e.type !== "world.reset") return;
      this.tokens.clear();
      this.firstResponseMs = null;
    });
  }

  /** A test world's choice (harness seed): the reference's 3-second first-response rule, or none. */
  setFirstResponseDeadline(on: boolean): void {
    this.firstResponseMs = on ? FIRST_RESPONSE_MS : null;
  }

  private get db() {
    return this.d.store.db;
  }

  get(id: string): Interaction | null {
    return this.db.query(`SELECT ${INTERACTION_COLUMNS()} FROM interactions WHERE id = ?`).get(id) as Interaction | null;
  }

  data(row: Pick<Interaction, "data">): InteractionData {
    return JSON.parse(row.data) as InteractionData;
  }

  state(row: Interaction): InteractionState {
    const now = this.d.clock.now();
    if (row.state === "expired" || now >= row.expires_at) return "expired";
    if (row.state === "pending" && this.firstResponseMs !== null && now >= row.created_at + this.firstResponseMs) return "expired";
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

  /**
   * The commands of one type (chat-input by default; USER or MESSAGE for a context menu)
   * a person may run in a channel, by name: every command of each bot present there (a server's own command over the global one of the same name), that
   * the channel's context allows and whose default permissions the person holds.
   */
  available(userId: string, channelId: string, type: number = COMMAND_TYPE.CHAT_INPUT): { app: Application; command: Command }[] {
    const ch = this.requireVisibleChannel(channelId, userId);
    const apps = ch.guild_id
      ? this.apps.inGuild(ch.guild_id)
      : dmRecipientIds(this.d, ch.id).flatMap((id) => this.apps.byBotUser(id) ?? []);
    const ctx = interactionContext({ guild_id: ch.guild_id }, true);
    const out: { app: Application; command: Command }[] = [];
    for (const app of apps) {
      const own = ch.guild_id ? this.commands.list(app.id, ch.guild_id) : [];
      const shadowed = new Set(own.map((c) => `${c.body.type}:${c.name}`));
      const all = [...own, ...this.commands.list(app.id, null).filter((c) => !shadowed.has(`${c.body.type}:${c.name}`))];
      for (const command of all) {
        const b = command.body;
        if (b.type !== type || (!ch.guild_id && !b.dm_permission) || (b.contexts && !b.contexts.includes(ctx))) continue;
        if (this.mayUse(command, ch, userId)) out.push({ app, command });
      }
    }
    return out.sort((a, b) =>
      a.command.name < b.command.name ? -1 : a.command.name > b.command.name ? 1 : a.app.name.localeCompare(b.app.name),
    );
  }

  /** A person runs a slash (or context-menu) command in a channel. */
  runCommand(input: CommandInvocation, delivery: Delivery): Invocation {
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
    // ATTACHMENT options' files, by option path: handed to the bot with the interaction.
    const files = new Map<string, string>();
    const file = (v: unknown, path: string) => {
      const id = checkGivenFile(this.d, input.userId, ch.id, v, path);
      files.set(path, id);
      return id;
    };
    const options = new OptionChecker(this.guilds, this.users, ch, input.resolveId, file).check(
      cmd.body.options,
      input.options ?? [],
      "options",
    );
    const data: InteractionData = {
      kind: "command",
      commandId: cmd.id,
      commandGuildId: cmd.guild_id,
      name: cmd.name,
      type: cmd.body.type,
      options,
    };
    const targetId = this.checkTarget(type, input, ch);
    if (targetId) data.targetId = targetId;
    return this.d.store.write(() => {
      const run = this.open(app, ch, input.userId, INTERACTION_TYPE.APPLICATION_COMMAND, null, cmd.id, data, delivery);
      // A dropped interaction (no live session) leaves the person's files theirs.
      if (run.delivered) handFiles(this.d, input.userId, files, app.bot_user_id, this.d.clock.now() + UPLOAD_TTL_MS);
      return run;
    });
  }

  /**
   * A context-menu command's target (spec 2.4, reference-gaps 4.1): a user command names a
   * member of the server (or a recipient of the DM), a message command a message the person
   * sees in the channel. A slash command names none.
   */
  private checkTarget(type: number, input: CommandInvocation, ch: Channel): string | null {
    const given = input.targetId;
    if (type === COMMAND_TYPE.CHAT_INPUT) {
      if (given !== undefined) bad("target_id", "Only context menu commands have a target", "APPLICATION_COMMAND_TARGET_INVALID");
      return null;
    }
    if (given === undefined) bad("target_id", "This field is required", "BASE_TYPE_REQUIRED");
    if (type === COMMAND_TYPE.USER) {
      const u = given ? this.users.get(given) : null;
      if (!u || u.deleted_at || !canSee(this.d, this.guilds, ch, u.id))
        bad("target_id", "Unknown user", "APPLICATION_COMMAND_TARGET_INVALID");
      return u.id;
    }
    const m = given ? this.messages.get(given) : null;
    if (!m || m.channel_id !== ch.id || (m.ephemeral_user_id && m.ephemeral_user_id !== input.userId))
      bad("target_id", "Unknown message", "APPLICATION_COMMAND_TARGET_INVALID");
    return m.id;
  }

  /** A person clicks a button or picks select values on a bot's message. */
  clickComponent(
    input: { userId: string; channelId: string; messageId: string; customId: string; values?: string[] },
    delivery: Delivery,
  ): Invocation {
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
    app: Application,
    ch: Channel,
    userId: string,
    type: number,
    messageId: string | null,
    commandId: string | null,
    data: InteractionData,
    delivery: Delivery,
  ): Invocation {
    const now = this.d.clock.now();
    for (const [id, t] of this.tokens) if (now >= t.expiresAt) this.tokens.delete(id);
    // On Postgres the bot's session may be on another node, which this one cannot see: the
    // interaction is sent to whichever node holds it, and with none it expires unanswered after
    // the first response window, as the reference's "The application did not respond".
    const delivered = delivery.live(app.bot_user_id) || this.d.store.engine.kind === "postgres";
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
        this.d.store.emit({ type: "interaction.created", interactionId: row.id, applicationId: app.id, token });
      }
    });
    return { interaction: modelOf<Interaction, InteractionRow>(row, INTERACTION_COLUMNS), delivered };
  }

  private requireVisibleChannel(channelId: string, userId: string): Channel {
    const ch = this.guilds.channel(channelId);
    if (!ch || !canSee(this.d, this.guilds, ch, userId)) throw DomainError.notFound("channel");
    return ch;
  }

  /** The bot is a member of the guild, or a recipient of the DM. */
  private botReaches(app: Application, ch: Channel): boolean {
    return canSee(this.d, this.guilds, ch, app.bot_user_id);
  }

  private checkMemberMayUse(cmd: Command, ch: Channel, userId: string): void {
    if (!this.mayUse(cmd, ch, userId)) throw DomainError.forbidden("You lack the permissions this command requires");
  }

  private mayUse(cmd: Command, ch: Channel, userId: string): boolean {
    const need = cmd.body.default_member_permissions;
    if (!ch.guild_id || need === null) return true;
    const have = this.guilds.permissions(ch.guild_id, userId, ch.id);
    const bits = Number(need);
    return bits === 0 ? hasPermission(have, 1 << 3) : hasPermission(have, bits);
  }
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
