/**
 * The message payload (create, edit, webhook execute, interaction responses): one
 * TypeBox schema holds the per-field limits of spec 8.2; the rules a schema cannot say
 * (6000 characters across embeds, component layout of spec 4 rule 6, the 32 KB whole,
 * "not empty") are checked after it, each naming the reference path.
 */
import { Type, type Static } from "@sinclair/typebox";
import { type AllowedMentions, DomainError } from "../../core";
import { shortValue, Snowflake, validate } from "../../wire/validation";
import { embedsIn, textIn } from "../../wire/mentions";
import type { Snowflakes } from "../../wire/snowflakes";
import { checkEmbedUrls } from "./embed-urls";
import { EmbedSchema } from "../../wire/embed-schema";

const Str = (max: number) => Type.String({ maxLength: max });
/**
 * Nullable members are stripped of their nulls before validation (null = absent), so
 * every schema member is plainly optional and errors name the deepest path, not a union.
 */
const Opt = <T extends import("@sinclair/typebox").TSchema>(t: T) => Type.Optional(t);

/** Components are checked structurally by hand (the layout rules give better paths than a union). */
const LooseComponent = Type.Object({ type: Type.Integer({ minimum: 0 }) });

export const MessageBodySchema = Type.Object({
  content: Opt(Str(2000)),
  nonce: Opt(Type.Union([Type.String({ maxLength: 25 }), Type.Integer()])),
  enforce_nonce: Opt(Type.Boolean()),
  tts: Opt(Type.Boolean()),
  embeds: Opt(Type.Array(EmbedSchema, { maxItems: 10 })),
  embed: Opt(EmbedSchema),
  components: Opt(Type.Array(LooseComponent, { maxItems: 5 })),
  allowed_mentions: Opt(
    Type.Object({
      parse: Opt(Type.Array(Type.Union([Type.Literal("roles"), Type.Literal("users"), Type.Literal("everyone")]), { maxItems: 3 })),
      roles: Opt(Type.Array(Snowflake, { maxItems: 100 })),
      users: Opt(Type.Array(Snowflake, { maxItems: 100 })),
      replied_user: Opt(Type.Boolean()),
    }),
  ),
  message_reference: Opt(
    Type.Object({
      type: Opt(Type.Integer({ minimum: 0 })),
      message_id: Opt(Snowflake),
      channel_id: Opt(Snowflake),
      guild_id: Opt(Snowflake),
      fail_if_not_exists: Opt(Type.Boolean()),
    }),
  ),
  flags: Opt(Type.Integer({ minimum: 0 })),
  sticker_ids: Opt(Type.Array(Snowflake, { maxItems: 0 })),
  attachments: Opt(Type.Array(Type.Object({}), { maxItems: 0 })),
  poll: Opt(Type.Null()),
  service_e2e: Type.Optional(Type.Unknown()),
});

export type MessageBody = Static<typeof MessageBodySchema>;

export interface NormalizedMessage {
  /** Keys present in the body (an edit replaces only these; `[]` and null clear). */
  has: { content: boolean; embeds: boolean; components: boolean; flags: boolean };
  content: string | null;
  embeds: Record<string, unknown>[] | null;
  components: Record<string, unknown>[] | null;
  flags: number | null;
  nonce: string | null;
  enforceNonce: boolean;
  tts: boolean;
  /** allowed_mentions as the core takes it (ids internal); null when absent: everything may be mentioned. */
  allowedMentions: AllowedMentions | null;
  reference: { messageId: string | null; channelId: string | null; failIfNotExists: boolean; type: number } | null;
}

export const MAX_PAYLOAD_BYTES = 32 * 1024;
const EMBED_TOTAL = 6000;

/**
 * Validate and normalize a message body. `partial` (edits) skips the "not empty" rule,
 * which the edit itself checks against what the message keeps. Mentions in the text come
 * out with internal ids (`ids` maps the snowflakes bots write), as the core stores them.
 */
export function validateMessagePayload(
  body: unknown,
  ids: Pick<Snowflakes, "uuid">,
  opts: { partial?: boolean; rawLength?: number | null } = {},
): NormalizedMessage {
  if (body === undefined || body === null) body = {};
  if (typeof body === "object" && !Array.isArray(body) && !provablySmall(opts.rawLength)) {
    const json = JSON.stringify(body);
    // A UTF-16 unit is at most 3 UTF-8 bytes: only a long text needs its bytes counted.
    const bytes = json.length * 3 <= MAX_PAYLOAD_BYTES ? json.length : Buffer.byteLength(json, "utf8");
    if (bytes > MAX_PAYLOAD_BYTES)
      throw DomainError.invalid("", `The message payload must be at most ${MAX_PAYLOAD_BYTES} bytes.`, "PAYLOAD_TOO_LARGE");
  }
  const raw = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const has = {
    content: "content" in raw,
    embeds: "embeds" in raw || "embed" in raw,
    components: "components" in raw,
    flags: "flags" in raw && raw.flags !== null,
  };
  const b = validate(MessageBodySchema, stripNulls(body));
  let embeds = b.embeds ?? (b.embed ? [b.embed] : null);
  if (embeds) {
    embeds.forEach((e, i) => checkEmbedUrls(e, b.embeds ? `embeds[${i}]` : "embed"));
    checkEmbedTotal(embeds);
    embeds = embeds.map(normalizeEmbed);
  }
  const components = b.components ? checkComponents(b.components as Record<string, unknown>[]) : null;
  const content = b.content ?? null;
  // A forward is its reference alone (reference-gaps 2.7a): refused as unsupported by the route, not as empty.
  const forward = b.message_reference?.type === 1;
  if (!opts.partial && !forward && !content && !(embeds && embeds.length) && !(components && components.length))
    throw DomainError.invalid("", "Cannot send an empty message", "MESSAGE_EMPTY");
  const ref = b.message_reference;
  return {
    has,
    content: content === null ? null : textIn(content, ids),
    embeds: embeds ? embedsIn(embeds as Record<string, unknown>[], ids) : null,
    components,
    flags: b.flags ?? null,
    nonce: b.nonce == null ? null : String(b.nonce),
    enforceNonce: b.enforce_nonce === true,
    tts: b.tts === true,
    allowedMentions: allowedMentions(b.allowed_mentions, ids),
    reference: ref
      ? {
          messageId: ref.message_id == null ? null : String(ref.message_id),
          channelId: ref.channel_id == null ? null : String(ref.channel_id),
          failIfNotExists: ref.fail_if_not_exists !== false,
          type: ref.type ?? 0,
        }
      : null,
  };
}

/**
 * allowed_mentions (reference-gaps 3.6.3): `parse` names the kinds mentioned wholesale,
 * `users` and `roles` list single ids instead (a kind may not be in both), and
 * `replied_user` lets a reply mention its author. Present without `parse`, nothing is
 * parsed but the lists. Ids that name nothing are dropped.
 */
function allowedMentions(a: MessageBody["allowed_mentions"], ids: Pick<Snowflakes, "uuid">): AllowedMentions | null {
  if (a == null) return null;
  const parse = a.parse ?? [];
  const list = (kind: "users" | "roles"): boolean | string[] => {
    const given = a[kind];
    if (parse.includes(kind)) {
      if (given?.length)
        throw DomainError.invalid(
          `allowed_mentions.${kind}`,
          `parse:["${kind}"] and ${kind}: [ids] are mutually exclusive.`,
          "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
        );
      return true;
    }
    return (given ?? []).map((id) => ids.uuid(String(id))).filter((id): id is string => id !== null);
  };
  return { users: list("users"), roles: list("roles"), everyone: parse.includes("everyone"), repliedUser: a.replied_user === true };
}

/**
 * The limit applies to the body as re-serialized JSON. Re-serializing never makes strings,
 * literals or structure longer than their source; only a number can grow ("1e20" becomes
 * 21 digits, at most 5.25 times its text), and the source's UTF-8 is at most 3 bytes per
 * UTF-16 unit. So a body text of n units re-serializes to at most 18n bytes, and a short
 * text needs no second serialization to be known to be within the limit.
 */
function provablySmall(rawLength: number | null | undefined): boolean {
  return rawLength != null && rawLength * 18 <= MAX_PAYLOAD_BYTES;
}

/** Recursive, and safe: a parsed body is at most MAX_JSON_DEPTH deep (wire/json.ts). */
function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (typeof v !== "object" || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = stripNulls(x);
  return out;
}

function checkEmbedTotal(embeds: Static<typeof EmbedSchema>[]): void {
  let total = 0;
  for (const e of embeds) {
    total += (e.title ?? "").length + (e.description ?? "").length + (e.footer?.text ?? "").length + (e.author?.name ?? "").length;
    for (const f of e.fields ?? []) total += f.name.length + f.value.length;
  }
  if (total > EMBED_TOTAL)
    throw DomainError.invalid("embeds", `Embed size exceeds maximum size of ${EMBED_TOTAL}`, "MAX_EMBED_SIZE_EXCEEDED");
}

/** Drop nulls and keep only known keys; API-created embeds are always "rich". */
function normalizeEmbed(e: Static<typeof EmbedSchema>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: "rich" };
  for (const [k, v] of Object.entries(e)) {
    if (v === undefined || k === "type") continue;
    if (k === "fields")
      out.fields = (v as { name: string; value: string; inline?: boolean | null }[]).map((f) => ({
        name: f.name,
        value: f.value,
        inline: f.inline ?? false,
      }));
    else if (typeof v === "object") out[k] = { ...(v as object) };
    else out[k] = v;
  }
  return out;
}

// ---- components (spec 4 rule 6) ----

const bad = (path: string, message: string, code = "COMPONENT_INVALID") => DomainError.invalid(path, message, code);

function str(c: Record<string, unknown>, key: string, path: string, max: number, required: boolean, min = 0): string | undefined {
  const v = c[key];
  if (v === undefined || v === null) {
    if (required) throw bad(`${path}.${key}`, "This field is required", "BASE_TYPE_REQUIRED");
    return undefined;
  }
  if (typeof v !== "string") throw bad(`${path}.${key}`, "Could not interpret the value as string.", "BASE_TYPE_STRING");
  if (v.length > max) throw bad(`${path}.${key}`, `Must be ${max} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
  if (v.length < min) throw bad(`${path}.${key}`, `Must be ${min} or more in length.`, "BASE_TYPE_MIN_LENGTH");
  return v;
}

function int(c: Record<string, unknown>, key: string, path: string, min: number, max: number): number | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) throw bad(`${path}.${key}`, "Must be an integer.", "NUMBER_TYPE_COERCE");
  if (v < min || v > max) throw bad(`${path}.${key}`, `Must be between ${min} and ${max}.`, "NUMBER_TYPE_MAX");
  return v;
}

function bool(c: Record<string, unknown>, key: string, path: string): boolean | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw bad(`${path}.${key}`, "Must be either true or false.", "BASE_TYPE_BOOLEAN");
  return v;
}

function emoji(c: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  const e = c.emoji;
  if (e === undefined || e === null) return undefined;
  if (typeof e !== "object" || Array.isArray(e)) throw bad(`${path}.emoji`, "Must be an object.", "DICT_TYPE_CONVERT");
  const o = e as Record<string, unknown>;
  const name = str(o, "name", `${path}.emoji`, 64, false);
  const id = o.id === undefined || o.id === null ? null : String(o.id);
  if (id !== null && !/^(0|[1-9][0-9]{0,19})$/.test(id)) throw bad(`${path}.emoji.id`, "Value is not snowflake.", "NUMBER_TYPE_COERCE");
  if (!name && !id) throw bad(`${path}.emoji`, "An emoji needs a name or an id", "BASE_TYPE_REQUIRED");
  return { name: name ?? null, id, ...(o.animated === true ? { animated: true } : {}) };
}

function checkComponents(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const ids = new Set<string>();
  const claim = (id: string | undefined, path: string) => {
    if (id === undefined) return;
    if (ids.has(id)) throw bad(path, "Component custom id cannot be duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED");
    ids.add(id);
  };
  return rows.map((row, ri) => {
    const rp = `components[${ri}]`;
    if (row.type !== 1) throw bad(`${rp}.type`, "Top-level components must be action rows (type 1).", "BASE_TYPE_CHOICES");
    const kids = row.components;
    if (!Array.isArray(kids)) throw bad(`${rp}.components`, "Must be an array.", "BASE_TYPE_ARRAY");
    if (kids.length < 1) throw bad(`${rp}.components`, "Must be 1 or more in length.", "BASE_TYPE_MIN_LENGTH");
    if (kids.length > 5) throw bad(`${rp}.components`, "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
    const out = kids.map((k, ci) => {
      const p = `${rp}.components[${ci}]`;
      if (typeof k !== "object" || k === null || Array.isArray(k)) throw bad(p, "Must be an object.", "DICT_TYPE_CONVERT");
      const c = k as Record<string, unknown>;
      const type = c.type;
      if (type === 2) return button(c, p, claim);
      if (type === 3 || (typeof type === "number" && type >= 5 && type <= 8)) {
        if (kids.length !== 1)
          throw bad(`${rp}.components`, "A row holding a select menu holds nothing else.", "COMPONENT_LAYOUT_WIDTH_EXCEEDED");
        return type === 3 ? stringSelect(c, p, claim) : greyedSelect(c, p, claim);
      }
      throw bad(`${p}.type`, `Component type ${shortValue(type)} is not supported in an action row.`, "BASE_TYPE_CHOICES");
    });
    return { type: 1, components: out };
  });
}

function button(c: Record<string, unknown>, p: string, claim: (id: string | undefined, path: string) => void): Record<string, unknown> {
  const style = c.style;
  if (typeof style !== "number" || !Number.isInteger(style) || style < 1 || style > 5)
    throw bad(`${p}.style`, "Button style must be 1 to 5.", "BUTTON_STYLE_INVALID");
  const label = str(c, "label", p, 80, false);
  const em = emoji(c, p);
  const disabled = bool(c, "disabled", p) ?? false;
  if (style === 5) {
    if (c.custom_id !== undefined && c.custom_id !== null)
      throw bad(`${p}.custom_id`, "A link button cannot have a custom_id.", "BUTTON_LINK_CUSTOM_ID");
    const url = str(c, "url", p, 512, true, 1)!;
    if (!/^(https?|discord):\/\//i.test(url))
      throw bad(`${p}.url`, "Scheme must be one of ('http', 'https', 'discord').", "URL_TYPE_INVALID_SCHEME");
    if (!label && !em) throw bad(`${p}.label`, "A button needs a label or an emoji.", "BASE_TYPE_REQUIRED");
    return { type: 2, style, url, ...(label !== undefined ? { label } : {}), ...(em ? { emoji: em } : {}), disabled };
  }
  if (c.url !== undefined && c.url !== null) throw bad(`${p}.url`, "Only link buttons (style 5) have a url.", "BUTTON_NON_LINK_URL");
  const customId = str(c, "custom_id", p, 100, true, 1)!;
  claim(customId, `${p}.custom_id`);
  if (!label && !em) throw bad(`${p}.label`, "A button needs a label or an emoji.", "BASE_TYPE_REQUIRED");
  return { type: 2, style, custom_id: customId, ...(label !== undefined ? { label } : {}), ...(em ? { emoji: em } : {}), disabled };
}

function stringSelect(
  c: Record<string, unknown>,
  p: string,
  claim: (id: string | undefined, path: string) => void,
): Record<string, unknown> {
  const customId = str(c, "custom_id", p, 100, true, 1)!;
  claim(customId, `${p}.custom_id`);
  const placeholder = str(c, "placeholder", p, 150, false);
  const options = c.options;
  if (!Array.isArray(options)) throw bad(`${p}.options`, "This field is required", "BASE_TYPE_REQUIRED");
  if (options.length < 1) throw bad(`${p}.options`, "Must be 1 or more in length.", "BASE_TYPE_MIN_LENGTH");
  if (options.length > 25) throw bad(`${p}.options`, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
  const opts = options.map((o, i) => {
    const op = `${p}.options[${i}]`;
    if (typeof o !== "object" || o === null || Array.isArray(o)) throw bad(op, "Must be an object.", "DICT_TYPE_CONVERT");
    const r = o as Record<string, unknown>;
    const label = str(r, "label", op, 100, true, 1)!;
    const value = str(r, "value", op, 100, true, 1)!;
    const description = str(r, "description", op, 100, false);
    const em = emoji(r, op);
    const def = bool(r, "default", op);
    return { label, value, ...(description !== undefined ? { description } : {}), ...(em ? { emoji: em } : {}), default: def ?? false };
  });
  const minValues = int(c, "min_values", p, 0, 25) ?? 1;
  const maxValues = int(c, "max_values", p, 1, 25) ?? 1;
  if (minValues > opts.length)
    throw bad(`${p}.min_values`, `Must be less than or equal to the number of options (${opts.length}).`, "NUMBER_TYPE_MAX");
  if (maxValues > opts.length)
    throw bad(`${p}.max_values`, `Must be less than or equal to the number of options (${opts.length}).`, "NUMBER_TYPE_MAX");
  if (minValues > maxValues) throw bad(`${p}.min_values`, "Must be less than or equal to max_values.", "NUMBER_TYPE_MAX");
  const disabled = bool(c, "disabled", p) ?? false;
  return {
    type: 3,
    custom_id: customId,
    options: opts,
    ...(placeholder !== undefined ? { placeholder } : {}),
    min_values: minValues,
    max_values: maxValues,
    disabled,
  };
}

/** Types 5 to 8 (user, role, mentionable, channel selects): kept as {type, custom_id, disabled} only. */
function greyedSelect(
  c: Record<string, unknown>,
  p: string,
  claim: (id: string | undefined, path: string) => void,
): Record<string, unknown> {
  const customId = str(c, "custom_id", p, 100, true, 1)!;
  claim(customId, `${p}.custom_id`);
  return { type: c.type, custom_id: customId, disabled: bool(c, "disabled", p) ?? false };
}
