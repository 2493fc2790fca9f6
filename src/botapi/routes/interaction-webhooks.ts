/**
 * The application webhook of an interaction token (spec 4, reference-gaps 5.2):
 * POST /webhooks/{application_id}/{token} and GET/PATCH/DELETE .../messages/{@original|id}.
 * These paths are shared with real webhooks; the exported functions are what the one
 * dispatching route calls when the id in the path is not a webhook.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { Req, Reply, RouteDef } from "../http";
import { noContent, ok } from "../http";
import { DomainError } from "../../core/errors";
import type { ResponseMessage } from "../../core/interactions";
import { validate } from "../validation";
import { messageJson } from "../serializers/message";
import type { MessageRow } from "../../core/types";
import type { BotApi } from "../context";

// ---- the message body of responses and follow-ups ----
// A minimal local validator of spec 8.2 and rule 6, until the shared
// src/botapi/schemas/message.ts validateMessagePayload is merged.

const EmbedSchema = Type.Object({
  title: Type.Optional(Type.String({ maxLength: 256 })),
  type: Type.Optional(Type.String({ maxLength: 32 })),
  description: Type.Optional(Type.String({ maxLength: 4096 })),
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  timestamp: Type.Optional(Type.String({ maxLength: 64 })),
  color: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 0xffffff }), Type.Null()])),
  footer: Type.Optional(Type.Object({ text: Type.String({ maxLength: 2048 }), icon_url: Type.Optional(Type.String({ maxLength: 2048 })) })),
  image: Type.Optional(Type.Object({ url: Type.String({ maxLength: 2048 }) })),
  thumbnail: Type.Optional(Type.Object({ url: Type.String({ maxLength: 2048 }) })),
  author: Type.Optional(
    Type.Object({ name: Type.String({ maxLength: 256 }), url: Type.Optional(Type.String({ maxLength: 2048 })), icon_url: Type.Optional(Type.String({ maxLength: 2048 })) }),
  ),
  fields: Type.Optional(
    Type.Array(Type.Object({ name: Type.String({ maxLength: 256 }), value: Type.String({ maxLength: 1024 }), inline: Type.Optional(Type.Boolean()) }), { maxItems: 25 }),
  ),
});

export const ResponseMessageSchema = Type.Object({
  content: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  embeds: Type.Optional(Type.Union([Type.Array(EmbedSchema, { maxItems: 10 }), Type.Null()])),
  components: Type.Optional(Type.Union([Type.Array(Type.Object({ type: Type.Integer() }), { maxItems: 5 }), Type.Null()])),
  flags: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  tts: Type.Optional(Type.Boolean()),
  allowed_mentions: Type.Optional(Type.Union([Type.Object({}), Type.Null()])),
  attachments: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 0 })),
});

type Body = Static<typeof ResponseMessageSchema>;

function bad(path: string, message: string, code = "BASE_TYPE_INVALID"): never {
  throw DomainError.invalid(path, message, code);
}

function str(v: unknown): v is string {
  return typeof v === "string";
}

function checkEmbeds(embeds: Body["embeds"], prefix: string): void {
  let total = 0;
  (embeds ?? []).forEach((e) => {
    total += (e.title ?? "").length + (e.description ?? "").length + (e.footer?.text ?? "").length + (e.author?.name ?? "").length;
    for (const f of e.fields ?? []) total += f.name.length + f.value.length;
  });
  if (total > 6000) bad(`${prefix}embeds`, "Embed size exceeds maximum size of 6000", "MESSAGE_EMBED_TOO_LARGE");
}

/** Rule 6: rows of up to 5 buttons or one select; buttons and string selects within their limits. */
function checkComponents(rows: Body["components"], prefix: string): void {
  (rows ?? []).forEach((row, i) => {
    const rp = `${prefix}components[${i}]`;
    const r = row as Record<string, unknown>;
    if (r.type !== 1) bad(`${rp}.type`, "Top-level components must be action rows", "COMPONENT_LAYOUT_INVALID");
    const items = r.components;
    if (!Array.isArray(items) || items.length < 1 || items.length > 5) bad(`${rp}.components`, "Must be between 1 and 5 in length.", "BASE_TYPE_BAD_LENGTH");
    const selects = items.filter((c) => c && [3, 5, 6, 7, 8].includes((c as { type: number }).type)).length;
    if (selects && items.length > 1) bad(`${rp}.components`, "A row holds one select menu alone", "COMPONENT_LAYOUT_WIDTH_EXCEEDED");
    items.forEach((item, j) => {
      const p = `${rp}.components[${j}]`;
      if (!item || typeof item !== "object") bad(p, "Only dictionaries may be used in a DictType", "DICT_TYPE_CONVERT");
      const c = item as Record<string, unknown>;
      const custom = c.custom_id;
      if (custom !== undefined && (!str(custom) || custom.length < 1 || custom.length > 100)) bad(`${p}.custom_id`, "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
      if (c.disabled !== undefined && typeof c.disabled !== "boolean") bad(`${p}.disabled`, "Must be either true or false.", "BASE_TYPE_BOOLEAN");
      switch (c.type) {
        case 2: {
          const style = c.style;
          if (!Number.isInteger(style) || (style as number) < 1 || (style as number) > 5) bad(`${p}.style`, "Value is not one of the accepted choices.", "BASE_TYPE_CHOICES");
          if (c.label !== undefined && (!str(c.label) || c.label.length > 80)) bad(`${p}.label`, "Must be 80 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
          if (style === 5) {
            if (!str(c.url) || c.url.length > 512) bad(`${p}.url`, "A link button needs a url", "BASE_TYPE_REQUIRED");
            if (custom !== undefined) bad(`${p}.custom_id`, "A link button cannot have a custom_id", "COMPONENT_INVALID");
          } else {
            if (custom === undefined) bad(`${p}.custom_id`, "This field is required", "BASE_TYPE_REQUIRED");
            if (c.url !== undefined) bad(`${p}.url`, "Only link buttons have a url", "COMPONENT_INVALID");
          }
          if (!c.label && !c.emoji) bad(`${p}.label`, "A button needs a label or an emoji", "BASE_TYPE_REQUIRED");
          break;
        }
        case 3: {
          if (custom === undefined) bad(`${p}.custom_id`, "This field is required", "BASE_TYPE_REQUIRED");
          const opts = c.options;
          if (!Array.isArray(opts) || opts.length < 1 || opts.length > 25) bad(`${p}.options`, "Must be between 1 and 25 in length.", "BASE_TYPE_BAD_LENGTH");
          opts.forEach((o, k) => {
            const op = `${p}.options[${k}]`;
            const oo = (o ?? {}) as Record<string, unknown>;
            for (const key of ["label", "value"]) {
              const v = oo[key];
              if (!str(v) || v.length < 1 || v.length > 100) bad(`${op}.${key}`, "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH");
            }
            if (oo.description !== undefined && (!str(oo.description) || oo.description.length > 100)) bad(`${op}.description`, "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
          });
          if (c.placeholder !== undefined && (!str(c.placeholder) || c.placeholder.length > 150)) bad(`${p}.placeholder`, "Must be 150 or fewer in length.", "BASE_TYPE_MAX_LENGTH");
          const min = c.min_values ?? 1;
          const max = c.max_values ?? 1;
          if (!Number.isInteger(min) || (min as number) < 0 || (min as number) > opts.length) bad(`${p}.min_values`, `Must be between 0 and ${opts.length}.`, "NUMBER_TYPE_MAX");
          if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > opts.length || (max as number) < (min as number))
            bad(`${p}.max_values`, `Must be between ${min} and ${opts.length}.`, "NUMBER_TYPE_MAX");
          break;
        }
        case 5:
        case 6:
        case 7:
        case 8:
          // Accepted as {type, custom_id, disabled} only: shown greyed out, never interactive.
          if (custom === undefined) bad(`${p}.custom_id`, "This field is required", "BASE_TYPE_REQUIRED");
          for (const k of Object.keys(c)) if (!["type", "custom_id", "disabled"].includes(k)) delete c[k];
          break;
        default:
          bad(`${p}.type`, "Value is not one of the accepted choices.", "COMPONENT_TYPE_INVALID");
      }
    });
  });
}

/** Validate a response/follow-up/edit body; `prefix` is "data." inside a callback. */
export function validateResponseMessage(value: unknown, prefix = ""): ResponseMessage {
  const b = validate(ResponseMessageSchema, value ?? {}, prefix.replace(/\.$/, ""));
  checkEmbeds(b.embeds, prefix);
  checkComponents(b.components, prefix);
  const out: ResponseMessage = {};
  if (b.content !== undefined && b.content !== null) out.content = b.content;
  if (b.embeds !== undefined) out.embeds = (b.embeds ?? []).map((e) => ({ type: "rich", ...e }));
  if (b.components !== undefined) out.components = b.components ?? [];
  if (b.flags !== undefined && b.flags !== null) out.flags = b.flags;
  if (b.tts !== undefined) out.tts = b.tts;
  return out;
}

// ---- the handlers (exported for the shared webhook route) ----

function appId(api: BotApi, flake: string): string | null {
  return api.flakes.uuid(flake);
}

/** discord.js sends %40original, discord.py @original. */
function target(api: BotApi, raw: string): string {
  let t = raw;
  try {
    t = decodeURIComponent(raw);
  } catch {}
  if (t === "@original") return t;
  const id = api.flakes.uuid(t);
  if (!id) throw DomainError.notFound("message");
  return id;
}

function view(req: Req, m: MessageRow) {
  return messageJson(req.api, m, { content: true, viewerId: req.api.core.apps.get(m.application_id ?? "")?.bot_user_id ?? null });
}

export async function interactionFollowup(req: Req, applicationFlake: string, token: string): Promise<Reply> {
  const core = req.api.core;
  const app = appId(req.api, applicationFlake);
  core.interactions.forApplication(app, token);
  const msg = validateResponseMessage(await req.json());
  return ok(view(req, core.interactions.followup(app, token, msg)));
}

export async function interactionMessageGet(req: Req, applicationFlake: string, token: string, messageIdOrOriginal: string): Promise<Reply> {
  const app = appId(req.api, applicationFlake);
  req.api.core.interactions.forApplication(app, token);
  return ok(view(req, req.api.core.interactions.message(app, token, target(req.api, messageIdOrOriginal)).message));
}

export async function interactionMessagePatch(req: Req, applicationFlake: string, token: string, messageIdOrOriginal: string): Promise<Reply> {
  const app = appId(req.api, applicationFlake);
  req.api.core.interactions.forApplication(app, token);
  const which = target(req.api, messageIdOrOriginal);
  const msg = validateResponseMessage(await req.json());
  return ok(view(req, req.api.core.interactions.edit(app, token, which, msg)));
}

export async function interactionMessageDelete(req: Req, applicationFlake: string, token: string, messageIdOrOriginal: string): Promise<Reply> {
  const app = appId(req.api, applicationFlake);
  req.api.core.interactions.forApplication(app, token);
  req.api.core.interactions.delete(app, token, target(req.api, messageIdOrOriginal));
  return noContent();
}
