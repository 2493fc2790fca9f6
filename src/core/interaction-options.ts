import type { Guilds } from "./guilds";
import type { Users } from "./users";
import type { Channel } from "./models";
import { OPT, type CommandOption } from "./commands";
import { Type } from "@sinclair/typebox";
import { DomainError } from "./errors";
import type { StoredOption } from "./models";

export type { StoredOption } from "./models";

/** An option as a person gives it; ids in the surface's own form, turned into internal ids by `resolveId`. */
export interface RawOption {
  name: string;
  /** Accepted and ignored: the stored command says what type each option is. */
  type?: number;
  value?: unknown;
  options?: RawOption[];
}

/**
 * The one schema of a person's options, for every surface that takes them (the people's
 * API, the harness): the shape only. What each value may be is checked here against the
 * stored command (OptionChecker); how an id is spelled (internal id, snowflake, a seed's
 * name) is each surface's own, given as `resolveId`.
 */
export const RawOptionSchema = Type.Recursive((This) =>
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 32 }),
    type: Type.Optional(Type.Integer()),
    value: Type.Optional(Type.Union([Type.String({ maxLength: 6000 }), Type.Number(), Type.Boolean()])),
    options: Type.Optional(Type.Array(This, { maxItems: 25 })),
  }),
);

/** A command's options as a surface's body gives them (the schema above, at most 25). */
export const RawOptionsSchema = Type.Array(RawOptionSchema, { maxItems: 25 });

function bad(path: string, message: string, code = "BASE_TYPE_INVALID"): never {
  throw DomainError.invalid(path, message, code);
}

/**
 * A person's command options checked against the stored command: value types, choices,
 * bounds, and ids (given in the surface's own form, turned into internal ids by
 * `resolveId`) that must name a user, role or channel reachable from the channel.
 */
export class OptionChecker {
  constructor(
    private readonly guilds: Guilds,
    private readonly users: Users,
    private readonly ch: Channel,
    private readonly resolveId: (raw: string) => string | null,
    /** An ATTACHMENT option's value: the person's filled upload slot it names (core/interaction-files.ts). */
    private readonly file: (value: unknown, path: string) => string,
  ) {}

  /** Check a person's options against the stored command (value types, choices, bounds, ids). */
  check(defs: CommandOption[], given: RawOption[], path: string): StoredOption[] {
    if (!Array.isArray(given)) bad(path, "Must be an array.", "BASE_TYPE_ARRAY");
    if (given.length > 25) bad(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
    const subs = defs.some((d) => d.type === OPT.SUB_COMMAND || d.type === OPT.SUB_COMMAND_GROUP);
    if (subs) {
      if (given.length !== 1) bad(path, "Pick exactly one sub-command", "APPLICATION_COMMAND_OPTIONS_INVALID");
      const g = given[0];
      const def = defs.find((d) => d.name === g.name);
      if (!def) bad(`${path}[0].name`, "Unknown sub-command", "APPLICATION_COMMAND_OPTIONS_INVALID");
      return [{ name: def.name, type: def.type, options: this.check(def.options ?? [], g.options ?? [], `${path}[0].options`) }];
    }
    const seen = new Set<string>();
    const out = given.map((g, i) => {
      const p = `${path}[${i}]`;
      const def = defs.find((d) => d.name === g?.name);
      if (!def) bad(`${p}.name`, "Unknown option", "APPLICATION_COMMAND_OPTIONS_INVALID");
      if (seen.has(def.name)) bad(`${p}.name`, "Option given twice", "APPLICATION_COMMAND_OPTIONS_INVALID");
      seen.add(def.name);
      if (g.options !== undefined) bad(`${p}.options`, "Only sub-commands take options", "APPLICATION_COMMAND_OPTIONS_INVALID");
      return { name: def.name, type: def.type, value: this.value(def, g.value, `${p}.value`) };
    });
    for (const d of defs)
      if (d.required && !seen.has(d.name)) bad(path, `The option "${d.name}" is required`, "APPLICATION_COMMAND_OPTIONS_REQUIRED");
    return out;
  }

  private value(def: CommandOption, v: unknown, path: string): string | number | boolean {
    const { ch, resolveId } = this;
    const choices = def.choices;
    const inChoices = (x: unknown) => !choices || choices.some((c) => c.value === x);
    const id = (): string | null =>
      typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v)) ? resolveId(String(v)) : null;
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
      case OPT.ATTACHMENT:
        return this.file(v, path);
      default:
        return bad(path, "Unknown option type", "APPLICATION_COMMAND_OPTIONS_INVALID");
    }
  }
}
