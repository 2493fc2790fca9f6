/**
 * The application webhook of an interaction token (spec 4, reference-gaps 5.2):
 * POST /webhooks/{application_id}/{token} and GET/PATCH/DELETE .../messages/{@original|id}.
 * These paths are shared with real webhooks; the exported functions are what the one
 * dispatching route calls when the id in the path is not a webhook.
 */
import { noContent, ok, type Reply, type TokenReq } from "../http";
import { DomainError, INTENTS, type Message, type ResponseMessage } from "../../core";
import { validateMessagePayload } from "../schemas/message";
import type { Snowflakes } from "../../wire/snowflakes";
import { messageOut } from "../present";
import type { BotApi } from "../context";

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
function authorize(req: TokenReq, applicationFlake: string, token: string) {
  const named = req.ctx.flakes.uuid(applicationFlake);
  // The bot user's id names its application too, as on the reference, where the two are one id (commands.ts).
  const applicationId = (named && req.ctx.core.apps.byBotUser(named)?.id) || named;
  return req.ctx.core.interactionResponses.authorize(token, { applicationId });
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
function view(req: TokenReq, m: Message) {
  const botUserId = req.ctx.core.apps.get(m.application_id ?? "")?.bot_user_id ?? null;
  return messageOut(req.ctx, m, { viewer: botUserId ? { botUserId, intents: INTENTS.MESSAGE_CONTENT } : null });
}

export function interactionFollowup(req: TokenReq, applicationFlake: string, token: string): Reply {
  const auth = authorize(req, applicationFlake, token);
  const msg = validateResponseMessage(req.json(), req.ctx.flakes);
  return ok(view(req, req.ctx.core.interactionResponses.followup(auth, msg)));
}

export function interactionMessageGet(req: TokenReq, applicationFlake: string, token: string, messageIdOrOriginal: string): Reply {
  const auth = authorize(req, applicationFlake, token);
  return ok(view(req, req.ctx.core.interactionResponses.message(auth, target(req.ctx, messageIdOrOriginal)).message));
}

export function interactionMessagePatch(req: TokenReq, applicationFlake: string, token: string, messageIdOrOriginal: string): Reply {
  const auth = authorize(req, applicationFlake, token);
  const which = target(req.ctx, messageIdOrOriginal);
  const msg = validateResponseMessage(req.json(), req.ctx.flakes);
  return ok(view(req, req.ctx.core.interactionResponses.edit(auth, which, msg)));
}

export function interactionMessageDelete(req: TokenReq, applicationFlake: string, token: string, messageIdOrOriginal: string): Reply {
  const auth = authorize(req, applicationFlake, token);
  req.ctx.core.interactionResponses.delete(auth, target(req.ctx, messageIdOrOriginal));
  return noContent();
}
