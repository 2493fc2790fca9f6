/**
 * The application webhook of an interaction token (spec 4, reference-gaps 5.2):
 * POST /webhooks/{application_id}/{token} and GET/PATCH/DELETE .../messages/{@original|id}.
 * These paths are shared with real webhooks; the exported functions are what the one
 * dispatching route calls when the id in the path is not a webhook.
 */
import type { Req, Reply, RouteDef } from "../http";
import { noContent, ok } from "../http";
import { DomainError } from "../../core/errors";
import type { ResponseMessage } from "../../core/interactions";
import { validateMessagePayload } from "../schemas/message";
import type { Snowflakes } from "../../wire/snowflakes";
import { messageOut } from "../present";
import type { MessageRow } from "../../core/types";
import type { BotApi } from "../context";
import { INTENTS } from "../../core/permissions";

// ---- the message body of responses and follow-ups ----

/**
 * Validate a response/follow-up/edit body with the one message validator (spec 8.2,
 * rule 6); `prefix` is "data." inside a callback, so 50035 paths read
 * `data.embeds[0].title`. Emptiness is the core's call (an edit may change only flags).
 */
export function validateResponseMessage(value: unknown, ids: Pick<Snowflakes, "uuid">, prefix = ""): ResponseMessage {
  const n = withPathPrefix(prefix.replace(/\.$/, ""), () => validateMessagePayload(value ?? {}, ids, { partial: true }));
  const out: ResponseMessage = {};
  if (n.has.content && n.content !== null) out.content = n.content;
  if (n.has.embeds) out.embeds = n.embeds ?? [];
  if (n.has.components) out.components = n.components ?? [];
  if (n.has.flags && n.flags !== null) out.flags = n.flags;
  if (n.tts) out.tts = true;
  if (n.allowedMentions) out.allowedMentions = n.allowedMentions;
  return out;
}

/** Run a validation whose 50035 paths are relative to `prefix` (a nested body). */
function withPathPrefix<T>(prefix: string, fn: () => T): T {
  if (!prefix) return fn();
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof DomainError) || e.kind !== "invalid") throw e;
    throw DomainError.invalidMany(
      e.issues.map((i) => ({ ...i, path: i.path ? (i.path.startsWith("[") ? prefix + i.path : `${prefix}.${i.path}`) : prefix })),
    );
  }
}

// ---- the handlers (exported for the shared webhook route) ----

/** The token in the path is the credential: checked first, once, by the core. */
function authorize(req: Req, applicationFlake: string, token: string) {
  return req.api.core.interactionResponses.authorize(token, { applicationId: req.api.flakes.uuid(applicationFlake) });
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

/** Full content: the token holder is the application that wrote these messages. */
function view(req: Req, m: MessageRow) {
  const botUserId = req.api.core.apps.get(m.application_id ?? "")?.bot_user_id ?? null;
  return messageOut(req.api, m, { viewer: botUserId ? { botUserId, intents: INTENTS.MESSAGE_CONTENT } : null });
}

export async function interactionFollowup(req: Req, applicationFlake: string, token: string): Promise<Reply> {
  const auth = authorize(req, applicationFlake, token);
  const msg = validateResponseMessage(await req.json(), req.api.flakes);
  return ok(view(req, req.api.core.interactionResponses.followup(auth, msg)));
}

export async function interactionMessageGet(req: Req, applicationFlake: string, token: string, messageIdOrOriginal: string): Promise<Reply> {
  const auth = authorize(req, applicationFlake, token);
  return ok(view(req, req.api.core.interactionResponses.message(auth, target(req.api, messageIdOrOriginal)).message));
}

export async function interactionMessagePatch(req: Req, applicationFlake: string, token: string, messageIdOrOriginal: string): Promise<Reply> {
  const auth = authorize(req, applicationFlake, token);
  const which = target(req.api, messageIdOrOriginal);
  const msg = validateResponseMessage(await req.json(), req.api.flakes);
  return ok(view(req, req.api.core.interactionResponses.edit(auth, which, msg)));
}

export async function interactionMessageDelete(req: Req, applicationFlake: string, token: string, messageIdOrOriginal: string): Promise<Reply> {
  const auth = authorize(req, applicationFlake, token);
  req.api.core.interactionResponses.delete(auth, target(req.api, messageIdOrOriginal));
  return noContent();
}
