import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import { DomainError } from "./errors";
import { maskPermissions } from "./permissions";

/** Option types (spec 2.4): 1 SUB_COMMAND, 2 SUB_COMMAND_GROUP, 3 STRING ... 11 ATTACHMENT. */
export const OPT = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

export const MAX_COMMANDS_PER_SCOPE = 100;

type Localizations = Record<string, string> | null;

export interface CommandChoice {
  name: string;
  value: string | number;
  name_localizations?: Localizations;
}

export interface CommandOption {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  choices?: CommandChoice[];
  options?: CommandOption[];
  channel_types?: number[];
  min_value?: number | null;
  max_value?: number | null;
  min_length?: number | null;
  max_length?: number | null;
  autocomplete?: boolean;
  name_localizations?: Localizations;
  description_localizations?: Localizations;
}

/** A command as a bot sends it (already shape-checked at the boundary). */
export interface CommandInput {
  name: string;
  type?: number;
  description?: string;
  options?: CommandOption[];
  default_member_permissions?: string | number | null;
  dm_permission?: boolean | null;
  nsfw?: boolean | null;
  contexts?: number[] | null;
  integration_types?: number[] | null;
  name_localizations?: Localizations;
  description_localizations?: Localizations;
}

/** The stored, normalised command body. */
export interface CommandBody {
  name: string;
  type: number;
  description: string;
  options: CommandOption[];
  default_member_permissions: string | null;
  dm_permission: boolean;
  nsfw: boolean;
  contexts: number[] | null;
  integration_types: number[];
  name_localizations: Localizations;
  description_localizations: Localizations;
}

export interface CommandRow {
  id: string;
  application_id: string;
  guild_id: string | null;
  name: string;
  type: number;
  body: string;
  version: number;
  created_at: number;
}

export interface Command extends Omit<CommandRow, "body"> {
  body: CommandBody;
}

// The reference's name rule: letters, digits, - _ ' and Devanagari/Thai, 1-32; chat-input names in lowercase.
const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const CHOICE_TYPES: readonly number[] = [OPT.STRING, OPT.INTEGER, OPT.NUMBER];

function bad(path: string, message: string, code = "BASE_TYPE_INVALID"): never {
  throw DomainError.invalid(path, message, code);
}

function at(prefix: string, key: string): string {
  return prefix ? `${prefix}.${key}` : key;
}

function checkName(name: string, path: string, lowercase: boolean): void {
  if (!NAME.test(name)) bad(path, "Command name is invalid", "APPLICATION_COMMAND_INVALID_NAME");
  if (lowercase && name !== name.toLowerCase()) bad(path, "Command name must be lowercase", "APPLICATION_COMMAND_INVALID_NAME");
}

function checkOptions(opts: CommandOption[], path: string, depth: number): CommandOption[] {
  if (opts.length > 25) bad(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
  const names = new Set<string>();
  const hasSub = opts.some((o) => o.type === OPT.SUB_COMMAND || o.type === OPT.SUB_COMMAND_GROUP);
  let optionalSeen = false;
  return opts.map((o, i) => {
    const p = `${path}[${i}]`;
    if (!Number.isInteger(o.type) || o.type < 1 || o.type > 11) bad(at(p, "type"), "Value is not one of the accepted choices.", "BASE_TYPE_CHOICES");
    checkName(o.name, at(p, "name"), true);
    if (names.has(o.name)) bad(at(p, "name"), "Option names must be unique", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS");
    names.add(o.name);
    if (o.description.length < 1 || o.description.length > 100) bad(at(p, "description"), "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
    const isSub = o.type === OPT.SUB_COMMAND || o.type === OPT.SUB_COMMAND_GROUP;
    if (hasSub && !isSub) bad(at(p, "type"), "Sub-commands and groups cannot be mixed with other option types", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    if (o.type === OPT.SUB_COMMAND_GROUP && depth > 0) bad(at(p, "type"), "A sub-command group may only appear at the top level", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    if (o.type === OPT.SUB_COMMAND && depth > 1) bad(at(p, "type"), "Sub-commands nest at most one group deep", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    const out: CommandOption = { type: o.type, name: o.name, description: o.description };
    if (o.name_localizations !== undefined) out.name_localizations = o.name_localizations;
    if (o.description_localizations !== undefined) out.description_localizations = o.description_localizations;
    if (isSub) {
      if (o.required) bad(at(p, "required"), "Sub-commands cannot be required", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
      for (const k of ["choices", "channel_types", "min_value", "max_value", "min_length", "max_length"] as const)
        if (o[k] !== undefined && o[k] !== null) bad(at(p, k), "Not allowed on a sub-command or group", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
      const inner = o.options ?? [];
      if (o.type === OPT.SUB_COMMAND_GROUP) {
        if (inner.length === 0) bad(at(p, "options"), "A sub-command group needs at least one sub-command", "BASE_TYPE_MIN_LENGTH");
        inner.forEach((x, j) => {
          if (x.type !== OPT.SUB_COMMAND) bad(`${p}.options[${j}].type`, "A group may only hold sub-commands", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
        });
      } else {
        inner.forEach((x, j) => {
          if (x.type === OPT.SUB_COMMAND || x.type === OPT.SUB_COMMAND_GROUP)
            bad(`${p}.options[${j}].type`, "A sub-command cannot hold sub-commands", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
        });
      }
      out.options = checkOptions(inner, at(p, "options"), depth + 1);
      return out;
    }
    if (o.options && o.options.length) bad(at(p, "options"), "Only sub-commands and groups hold options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    if (o.required) {
      if (optionalSeen) bad(at(p, "required"), "Required options must be placed before non-required options", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID");
      out.required = true;
    } else optionalSeen = true;
    if (o.choices !== undefined && o.choices !== null) {
      if (!CHOICE_TYPES.includes(o.type)) bad(at(p, "choices"), "Choices are only allowed on string, integer and number options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
      if (o.choices.length > 25) bad(at(p, "choices"), "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
      if (o.autocomplete) bad(at(p, "autocomplete"), "Autocomplete cannot be set with choices", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
      out.choices = o.choices.map((c, j) => {
        const cp = `${p}.choices[${j}]`;
        if (c.name.length < 1 || c.name.length > 100) bad(`${cp}.name`, "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
        const v = c.value;
        if (o.type === OPT.STRING && (typeof v !== "string" || v.length < 1 || v.length > 100))
          bad(`${cp}.value`, "Must be a string between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
        if (o.type === OPT.INTEGER && (typeof v !== "number" || !Number.isSafeInteger(v))) bad(`${cp}.value`, "Must be an integer.", "NUMBER_TYPE_COERCE");
        if (o.type === OPT.NUMBER && (typeof v !== "number" || !Number.isFinite(v))) bad(`${cp}.value`, "Must be a number.", "NUMBER_TYPE_COERCE");
        return c.name_localizations !== undefined ? { name: c.name, value: v, name_localizations: c.name_localizations } : { name: c.name, value: v };
      });
    }
    const numeric = o.type === OPT.INTEGER || o.type === OPT.NUMBER;
    for (const k of ["min_value", "max_value"] as const) {
      const v = o[k];
      if (v === undefined || v === null) continue;
      if (!numeric) bad(at(p, k), "Only integer and number options take min_value/max_value", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
      if (o.type === OPT.INTEGER && !Number.isSafeInteger(v)) bad(at(p, k), "Must be an integer.", "NUMBER_TYPE_COERCE");
      out[k] = v;
    }
    if (out.min_value != null && out.max_value != null && out.min_value > out.max_value)
      bad(at(p, "min_value"), "min_value must not exceed max_value", "NUMBER_TYPE_MAX");
    for (const k of ["min_length", "max_length"] as const) {
      const v = o[k];
      if (v === undefined || v === null) continue;
      if (o.type !== OPT.STRING) bad(at(p, k), "Only string options take min_length/max_length", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
      if (!Number.isInteger(v) || v < (k === "max_length" ? 1 : 0) || v > 6000) bad(at(p, k), "Must be between 0 and 6000.", "NUMBER_TYPE_MAX");
      out[k] = v;
    }
    if (out.min_length != null && out.max_length != null && out.min_length > out.max_length)
      bad(at(p, "min_length"), "min_length must not exceed max_length", "NUMBER_TYPE_MAX");
    if (o.channel_types !== undefined && o.channel_types !== null) {
      if (o.type !== OPT.CHANNEL) bad(at(p, "channel_types"), "Only channel options take channel_types", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
      out.channel_types = [...new Set(o.channel_types)];
    }
    // Stored and returned; Parley never sends an autocomplete interaction (spec 1.5).
    if (o.autocomplete) {
      if (o.type !== OPT.STRING && !numeric) bad(at(p, "autocomplete"), "Only string, integer and number options autocomplete", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
      out.autocomplete = true;
    }
    return out;
  });
}

/**
 * Check and normalise a command body. `prefix` names where it sits in the request
 * ("" for POST/PATCH, "[3]" in a bulk overwrite) so errors name the reference path.
 */
export function normaliseCommand(input: CommandInput, prefix = ""): CommandBody {
  const type = input.type ?? 1;
  if (![1, 2, 3].includes(type)) bad(at(prefix, "type"), "Value is not one of the accepted choices.", "BASE_TYPE_CHOICES");
  const chat = type === 1;
  if (chat) checkName(input.name, at(prefix, "name"), true);
  else if (input.name.length < 1 || input.name.length > 32 || input.name.trim() !== input.name)
    bad(at(prefix, "name"), "Must be between 1 and 32 in length.", "BASE_TYPE_BAD_LENGTH");
  const description = input.description ?? "";
  if (chat && (description.length < 1 || description.length > 100)) bad(at(prefix, "description"), "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
  if (!chat && description !== "") bad(at(prefix, "description"), "Context menu commands cannot have a description", "APPLICATION_COMMAND_INVALID_DESCRIPTION");
  const opts = input.options ?? [];
  if (!chat && opts.length) bad(at(prefix, "options"), "Context menu commands cannot have options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
  let perms: string | null = null;
  if (input.default_member_permissions !== undefined && input.default_member_permissions !== null) {
    const raw = String(input.default_member_permissions);
    if (!/^[0-9]{1,20}$/.test(raw) || BigInt(raw) >= 1n << 64n) bad(at(prefix, "default_member_permissions"), "Must be a permission bitfield.", "BASE_TYPE_INVALID");
    perms = String(maskPermissions(raw));
  }
  return {
    name: input.name,
    type,
    description,
    options: checkOptions(opts, at(prefix, "options"), 0),
    default_member_permissions: perms,
    dm_permission: input.dm_permission ?? true,
    nsfw: input.nsfw ?? false,
    contexts: input.contexts ?? null,
    integration_types: input.integration_types ?? [0],
    name_localizations: input.name_localizations ?? null,
    description_localizations: input.description_localizations ?? null,
  };
}

/**
 * Application commands, global (guild null) or per guild. A scope holds at most 100;
 * names are unique per scope and type. Every change bumps `version`.
 */
export class Commands {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  private static parse(r: CommandRow): Command {
    return { ...r, body: JSON.parse(r.body) as CommandBody };
  }

  list(appId: string, guildId: string | null): Command[] {
    const rows = this.db
      .query("SELECT * FROM commands WHERE application_id = ? AND guild_id IS ? ORDER BY id")
      .all(appId, guildId) as CommandRow[];
    return rows.map(Commands.parse);
  }

  get(id: string): Command | null {
    const r = this.db.query("SELECT * FROM commands WHERE id = ?").get(id) as CommandRow | null;
    return r ? Commands.parse(r) : null;
  }

  /** The command in this exact scope, or 404. */
  require(appId: string, guildId: string | null, id: string): Command {
    const c = this.get(id);
    if (!c || c.application_id !== appId || c.guild_id !== guildId) throw DomainError.notFound("application command");
    return c;
  }

  /** The commands a person may pick in a guild (guild scope first) or in a DM (global only). */
  findByName(appId: string, guildId: string | null, name: string, type: number): Command | null {
    if (guildId) {
      const g = this.db
        .query("SELECT * FROM commands WHERE application_id = ? AND guild_id = ? AND name = ? AND type = ?")
        .get(appId, guildId, name, type) as CommandRow | null;
      if (g) return Commands.parse(g);
    }
    const r = this.db
      .query("SELECT * FROM commands WHERE application_id = ? AND guild_id IS NULL AND name = ? AND type = ?")
      .get(appId, name, type) as CommandRow | null;
    return r ? Commands.parse(r) : null;
  }

  /** POST: create, or update the command of the same name and type (as the reference does). */
  upsert(appId: string, guildId: string | null, input: CommandInput): { command: Command; created: boolean } {
    const body = normaliseCommand(input);
    return this.d.store.write(() => {
      this.requireScope(guildId);
      const existing = this.byName(appId, guildId, body.name, body.type);
      if (existing) return { command: this.save(existing, body), created: false };
      if (this.count(appId, guildId) >= MAX_COMMANDS_PER_SCOPE)
        bad("", `Maximum number of application commands reached (${MAX_COMMANDS_PER_SCOPE})`, "APPLICATION_COMMANDS_MAX");
      return { command: this.insert(appId, guildId, body), created: true };
    });
  }

  /** PATCH: the given fields replace the stored ones; the type never changes. */
  update(appId: string, guildId: string | null, id: string, patch: Partial<CommandInput>): Command {
    return this.d.store.write(() => {
      const c = this.require(appId, guildId, id);
      const merged: CommandInput = { ...c.body, ...stripUndefined(patch), type: c.body.type };
      const body = normaliseCommand(merged);
      const clash = this.byName(appId, guildId, body.name, body.type);
      if (clash && clash.id !== c.id) bad("name", "A command with this name already exists", "APPLICATION_COMMAND_ALREADY_EXISTS");
      return this.save(c, body);
    });
  }

  delete(appId: string, guildId: string | null, id: string): void {
    this.d.store.write(() => {
      this.require(appId, guildId, id);
      this.db.query("DELETE FROM commands WHERE id = ?").run(id);
    });
  }

  /**
   * PUT: the scope becomes exactly this list, in one transaction (a bad entry changes
   * nothing). Commands matched by name and type keep their id.
   */
  overwrite(appId: string, guildId: string | null, inputs: CommandInput[]): Command[] {
    if (inputs.length > MAX_COMMANDS_PER_SCOPE) bad("", `Must be ${MAX_COMMANDS_PER_SCOPE} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
    const bodies = inputs.map((c, i) => normaliseCommand(c, `[${i}]`));
    const seen = new Set<string>();
    bodies.forEach((b, i) => {
      const key = `${b.type}:${b.name}`;
      if (seen.has(key)) bad(`[${i}].name`, "Application command names must be unique", "APPLICATION_COMMANDS_DUPLICATE_NAME");
      seen.add(key);
    });
    return this.d.store.write(() => {
      this.requireScope(guildId);
      const current = this.list(appId, guildId);
      const keep = new Set<string>();
      const out = bodies.map((b) => {
        const existing = current.find((c) => c.body.type === b.type && c.name === b.name);
        if (!existing) return this.insert(appId, guildId, b);
        keep.add(existing.id);
        return JSON.stringify(existing.body) === JSON.stringify(b) ? existing : this.save(existing, b);
      });
      for (const c of current) if (!keep.has(c.id)) this.db.query("DELETE FROM commands WHERE id = ?").run(c.id);
      return out;
    });
  }

  private requireScope(guildId: string | null): void {
    if (guildId) this.guilds.require(guildId);
  }

  private count(appId: string, guildId: string | null): number {
    return (this.db.query("SELECT count(*) AS n FROM commands WHERE application_id = ? AND guild_id IS ?").get(appId, guildId) as { n: number }).n;
  }

  private byName(appId: string, guildId: string | null, name: string, type: number): Command | null {
    const r = this.db
      .query("SELECT * FROM commands WHERE application_id = ? AND guild_id IS ? AND name = ? AND type = ?")
      .get(appId, guildId, name, type) as CommandRow | null;
    return r ? Commands.parse(r) : null;
  }

  private insert(appId: string, guildId: string | null, body: CommandBody): Command {
    const row: CommandRow = {
      id: this.d.ids.next(),
      application_id: appId,
      guild_id: guildId,
      name: body.name,
      type: body.type,
      body: JSON.stringify(body),
      version: 1,
      created_at: this.d.clock.now(),
    };
    this.db
      .query(
        "INSERT INTO commands (id, application_id, guild_id, name, type, body, version, created_at) VALUES ($id, $application_id, $guild_id, $name, $type, $body, $version, $created_at)",
      )
      .run(row as never);
    return Commands.parse(row);
  }

  private save(c: Command, body: CommandBody): Command {
    const version = c.version + 1;
    this.db.query("UPDATE commands SET name = ?, body = ?, version = ? WHERE id = ?").run(body.name, JSON.stringify(body), version, c.id);
    return { ...c, name: body.name, body, version };
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
