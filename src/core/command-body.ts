import { DomainError } from "./errors";
import { maskPermissions } from "./permissions";
import { OPT, type CommandBody, type CommandInput, type CommandOption } from "./command-types";

/**
 * A command body as a bot sends it, checked against the reference's rules (names,
 * option nesting, choices, bounds) and normalised into what is stored.
 */
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
  const hasSub = opts.some(isSubCommand);
  let optionalSeen = false;
  return opts.map((o, i) => {
    const p = `${path}[${i}]`;
    if (!Number.isInteger(o.type) || o.type < 1 || o.type > 11)
      bad(at(p, "type"), "Value is not one of the accepted choices.", "BASE_TYPE_CHOICES");
    checkName(o.name, at(p, "name"), true);
    if (names.has(o.name)) bad(at(p, "name"), "Option names must be unique", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS");
    names.add(o.name);
    if (o.description.length < 1 || o.description.length > 100)
      bad(at(p, "description"), "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
    if (hasSub && !isSubCommand(o))
      bad(at(p, "type"), "Sub-commands and groups cannot be mixed with other option types", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    const out: CommandOption = { type: o.type, name: o.name, description: o.description };
    if (o.name_localizations !== undefined) out.name_localizations = o.name_localizations;
    if (o.description_localizations !== undefined) out.description_localizations = o.description_localizations;
    if (isSubCommand(o)) return subCommand(o, out, p, depth);
    if (o.options && o.options.length)
      bad(at(p, "options"), "Only sub-commands and groups hold options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    if (o.required) {
      if (optionalSeen)
        bad(
          at(p, "required"),
          "Required options must be placed before non-required options",
          "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        );
      out.required = true;
    } else optionalSeen = true;
    return valueOption(o, out, p);
  });
}

function isSubCommand(o: CommandOption): boolean {
  return o.type === OPT.SUB_COMMAND || o.type === OPT.SUB_COMMAND_GROUP;
}

/** A sub-command or group: no value rules, and sub-commands nest at most one group deep. */
function subCommand(o: CommandOption, out: CommandOption, p: string, depth: number): CommandOption {
  if (o.type === OPT.SUB_COMMAND_GROUP && depth > 0)
    bad(at(p, "type"), "A sub-command group may only appear at the top level", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
  if (o.type === OPT.SUB_COMMAND && depth > 1)
    bad(at(p, "type"), "Sub-commands nest at most one group deep", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
  if (o.required) bad(at(p, "required"), "Sub-commands cannot be required", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
  for (const k of ["choices", "channel_types", "min_value", "max_value", "min_length", "max_length"] as const)
    if (o[k] !== undefined && o[k] !== null)
      bad(at(p, k), "Not allowed on a sub-command or group", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
  const inner = o.options ?? [];
  if (o.type === OPT.SUB_COMMAND_GROUP) {
    if (inner.length === 0) bad(at(p, "options"), "A sub-command group needs at least one sub-command", "BASE_TYPE_MIN_LENGTH");
    inner.forEach((x, j) => {
      if (x.type !== OPT.SUB_COMMAND)
        bad(`${p}.options[${j}].type`, "A group may only hold sub-commands", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    });
  } else {
    inner.forEach((x, j) => {
      if (isSubCommand(x))
        bad(`${p}.options[${j}].type`, "A sub-command cannot hold sub-commands", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    });
  }
  out.options = checkOptions(inner, at(p, "options"), depth + 1);
  return out;
}

/** An option that takes a value: choices, bounds, channel types, autocomplete. */
function valueOption(o: CommandOption, out: CommandOption, p: string): CommandOption {
  if (o.choices !== undefined && o.choices !== null) out.choices = checkChoices(o, p);
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
    if (!Number.isInteger(v) || v < (k === "max_length" ? 1 : 0) || v > 6000)
      bad(at(p, k), "Must be between 0 and 6000.", "NUMBER_TYPE_MAX");
    out[k] = v;
  }
  if (out.min_length != null && out.max_length != null && out.min_length > out.max_length)
    bad(at(p, "min_length"), "min_length must not exceed max_length", "NUMBER_TYPE_MAX");
  if (o.channel_types !== undefined && o.channel_types !== null) {
    if (o.type !== OPT.CHANNEL)
      bad(at(p, "channel_types"), "Only channel options take channel_types", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    out.channel_types = [...new Set(o.channel_types)];
  }
  // Stored and returned; Parley never sends an autocomplete interaction (spec 1.5).
  if (o.autocomplete) {
    if (o.type !== OPT.STRING && !numeric)
      bad(at(p, "autocomplete"), "Only string, integer and number options autocomplete", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
    out.autocomplete = true;
  }
  return out;
}

function checkChoices(o: CommandOption, p: string): NonNullable<CommandOption["choices"]> {
  const choices = o.choices!;
  if (!CHOICE_TYPES.includes(o.type))
    bad(at(p, "choices"), "Choices are only allowed on string, integer and number options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
  if (choices.length > 25) bad(at(p, "choices"), "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
  if (o.autocomplete) bad(at(p, "autocomplete"), "Autocomplete cannot be set with choices", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
  return choices.map((c, j) => {
    const cp = `${p}.choices[${j}]`;
    if (c.name.length < 1 || c.name.length > 100) bad(`${cp}.name`, "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
    const v = c.value;
    if (o.type === OPT.STRING && (typeof v !== "string" || v.length < 1 || v.length > 100))
      bad(`${cp}.value`, "Must be a string between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
    if (o.type === OPT.INTEGER && (typeof v !== "number" || !Number.isSafeInteger(v)))
      bad(`${cp}.value`, "Must be an integer.", "NUMBER_TYPE_COERCE");
    if (o.type === OPT.NUMBER && (typeof v !== "number" || !Number.isFinite(v)))
      bad(`${cp}.value`, "Must be a number.", "NUMBER_TYPE_COERCE");
    return c.name_localizations !== undefined
      ? { name: c.name, value: v, name_localizations: c.name_localizations }
      : { name: c.name, value: v };
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
  if (chat && (description.length < 1 || description.length > 100))
    bad(at(prefix, "description"), "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
  if (!chat && description !== "")
    bad(at(prefix, "description"), "Context menu commands cannot have a description", "APPLICATION_COMMAND_INVALID_DESCRIPTION");
  const opts = input.options ?? [];
  if (!chat && opts.length)
    bad(at(prefix, "options"), "Context menu commands cannot have options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID");
  let perms: string | null = null;
  if (input.default_member_permissions !== undefined && input.default_member_permissions !== null) {
    const raw = String(input.default_member_permissions);
    if (!/^[0-9]{1,20}$/.test(raw) || BigInt(raw) >= 1n << 64n)
      bad(at(prefix, "default_member_permissions"), "Must be a permission bitfield.", "BASE_TYPE_INVALID");
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
